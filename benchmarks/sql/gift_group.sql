-- pgbench script for benchmarks/pg_ceiling.py: one commit group of four gift sends, in the statements the
-- server sends for it (storage/postgres_prefetch.py, postgres_batches.py), written as plainly as
-- PostgreSQL allows. Nothing here is checked or decided: it is the database's share of four sends,
-- and an optimistic one (no savepoints, no queue lock, a one-second window for the sender's gifts where
-- the server counts the day's, no webhook fan-out or deliveries).
\set a random(0, 79)
\set b random(0, 79)
\set c random(0, 79)
\set d random(0, 79)
\set a1 (:a + 1) % 80
\set b1 (:b + 1) % 80
\set c1 (:c + 1) % 80
\set d1 (:d + 1) % 80
\set now random(1795000000000, 1795086400000)
BEGIN;
-- Reads ahead: senders and recipients, idempotency records, friendships with the sender's recent gifts,
-- the coin balance of the one send in four that costs the sender.
SELECT p.* FROM players p WHERE game_id = 'gam_ceiling' AND external_id IN
  ('p' || :a, 'p' || :b, 'p' || :c, 'p' || :d, 'p' || :a1, 'p' || :b1, 'p' || :c1, 'p' || :d1);
SELECT * FROM idempotency WHERE (scope, key) IN
  (('ply_' || :a, 'k' || :now), ('ply_' || :b, 'k' || :now), ('ply_' || :c, 'k' || :now), ('ply_' || :d, 'k' || :now));
SELECT f.player_id, f.since,
  (SELECT count(*) FROM gifts g
    WHERE g.sender_id = f.player_id AND g.sent_at >= :now::bigint - 1000 AND g.sent_at <= :now::bigint) AS today,
  (SELECT max(sent_at) FROM gifts g
    WHERE g.sender_id = f.player_id AND g.sent_at >= :now::bigint - 1000 AND g.sent_at <= :now::bigint
      AND g.recipient_id = f.friend_id) AS latest
  FROM friendships f WHERE (f.player_id, f.friend_id) IN (('ply_' || :a, 'ply_' || :a1),
    ('ply_' || :b, 'ply_' || :b1), ('ply_' || :c, 'ply_' || :c1), ('ply_' || :d, 'ply_' || :d1));
SELECT amount FROM holdings WHERE player_id = 'ply_' || :a AND resource_key = 'coins';
-- Writes, one multi-row insert per table: four gifts and their grants, ten outbox events (two or three
-- a send), four idempotency records, one ledger entry and its balance.
INSERT INTO gifts (id, game_id, grant_id, sender_id, recipient_id, type, resource_key, amount, status,
                   sent_at, expires_at, deducted, idempotency_key)
  SELECT 'gft_' || x, 'gam_ceiling', 'grt_' || x, 'ply_' || s, 'ply_' || (s + 1) % 80, 'currency', 'energy', 1,
         'pending', :now::bigint, :now::bigint + 86400000, false, x
  FROM (SELECT md5(random()::text) AS x, s FROM unnest(ARRAY[:a::int, :b::int, :c::int, :d::int]) AS s) v;
INSERT INTO grants (id, game_id, player_id, external_player_id, kind, status, entries, source_kind,
                    source_ref_id, metadata, created_at, expires_at)
  SELECT 'grt_' || x, 'gam_ceiling', 'ply_' || s, 'p' || s, 'gift', 'pending',
         '[{"type":"currency","key":"energy","amount":1}]', 'gift', 'gft_' || x, '{}', :now::bigint,
         :now::bigint + 86400000
  FROM (SELECT md5(random()::text) AS x, s FROM unnest(ARRAY[:a::int, :b::int, :c::int, :d::int]) AS s) v;
INSERT INTO outbox (id, studio_id, game_id, env, kind, occurred_at, data)
  SELECT 'evt_' || md5(random()::text), 'std_ceiling', 'gam_ceiling', 'live', 'gift.sent', :now::bigint,
         '{"giftId":"gft_0123456789abcdef0123456789abcdef","sender":"p1","recipient":"p2","type":"currency","resourceKey":"energy","amount":1}'
  FROM generate_series(1, 10);
INSERT INTO idempotency (scope, key, fingerprint, status, body, created_at)
  SELECT 'ply_' || s, md5(random()::text), md5(random()::text), 200,
         convert_to('{"data":{"giftId":"gft_0123456789abcdef0123456789abcdef","status":"pending"}}', 'UTF8'),
         :now::bigint
  FROM unnest(ARRAY[:a::int, :b::int, :c::int, :d::int]) AS s;
INSERT INTO ledger (id, player_id, game_id, resource_key, resource_type, delta, balance_after, reason,
                    source_ref_id, actor, created_at)
  VALUES ('led_' || md5(random()::text), 'ply_' || :a, 'gam_ceiling', 'coins', 'currency', -1, 999999999,
          'gift', 'gft_x', '{"kind":"player"}', :now::bigint);
INSERT INTO holdings (player_id, resource_key, amount) VALUES ('ply_' || :a, 'coins', 999999999)
  ON CONFLICT (player_id, resource_key) DO UPDATE SET amount = holdings.amount - 1;
COMMIT;
