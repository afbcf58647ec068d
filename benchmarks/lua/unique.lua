-- Unique ids for write scenarios (loaded before every scenario script).
--
-- unique_id() returns "<nonce>-<thread>-<counter>", distinct for every request of a run:
--   * nonce: random hex drawn by the harness for each wrk run (slice), so rounds never collide
--     with each other or with rows left in the database by the setup or the warm-up;
--   * thread: wrk thread number, set in setup() below (each wrk thread has its own Lua state);
--   * counter: per-thread request counter.
-- The harness defines BENCH_NONCE (a string) before this file. Scenario Lua must not redefine
-- setup() or init(); it may call unique_id() and read the vars table (context variables).

local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("bench_thread", thread_count)
end

local prefix = nil
local counter = 0

function init(args)
   local tid = bench_thread or 1
   prefix = BENCH_NONCE .. "-" .. tid .. "-"
   math.randomseed(tonumber(string.sub(BENCH_NONCE, 1, 8), 16) + tid)
end

function unique_id()
   counter = counter + 1
   return prefix .. counter
end

-- A paced run (vars.pace_ms: benchmarks/test_twins.py's comparison of each twin with livecore) waits that
-- long before each request of a connection, so that a second of it drains pools of a few hundred items
-- instead of the thousands an unpaced second takes.
if vars and vars.pace_ms then
   function delay()
      return tonumber(vars.pace_ms)
   end
end
