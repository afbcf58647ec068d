// Real requests to the three APIs, typed by what openapi-typescript (default settings) generates from
// their OpenAPI documents: tests/typescript/test_typescript_clients.py generates sdk.ts, server.ts and
// admin.ts beside this file and compiles it with `tsc --strict`. Each body holds only what a caller must
// send, so a defaulted field the types made required would not compile; the metadata objects hold keys,
// so a free-form object typed `Record<string, never>` would not compile either.
import type { paths as Sdk } from "./sdk";
import type { paths as Server } from "./server";
import type { paths as Admin } from "./admin";

type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;
type JsonAnswer<Op, Status extends number> = Op extends {
    responses: { [S in Status]: { content: { "application/json": infer Answer } } };
}
    ? Answer
    : never;

// A game client sends a gift to a friend: the item, the amount and the friend, nothing else.
type SendGift = Sdk["/sdk/v1/players/{externalId}/friends/gifts"]["post"];
export const gift: JsonBody<SendGift> = { type: "item", resourceKey: "sword", amount: 1, externalPlayerId: "p-2" };

// The studio's backend grants a reward with its own metadata (an order, free-form) and a parameterised item.
type CreateGrant = Server["/server/v1/players/{externalId}/grants"]["post"];
export const grant: JsonBody<CreateGrant> = {
    idempotencyKey: "order-1042",
    entries: [
        { type: "currency", key: "coins", amount: 500 },
        { type: "item", key: "sword", amount: 1, parameters: { level: 3, skin: "gold" } },
    ],
    metadata: { orderId: "1042", store: "app-store", lines: [{ sku: "coins-500", quantity: 1 }] },
};

// An operator grants a player compensation from a script, with a personal key.
type ManualGrant = Admin["/admin/v1/studios/{studio}/games/{game}/grants"]["post"];
export const manual: JsonBody<ManualGrant> = {
    externalPlayerId: "p-1",
    entries: [{ type: "currency", key: "coins", amount: 100 }],
    metadata: { ticket: "SUP-311" },
};

// Reading the answers: the ids, and a grant's metadata back as the studio sent it.
export function giftId(answer: JsonAnswer<SendGift, 201>): string {
    return answer.data.gift.giftId;
}

export function orderOf(answer: JsonAnswer<CreateGrant, 201>): unknown {
    return answer.data.grant.metadata["orderId"];
}

export function grantedBy(answer: JsonAnswer<ManualGrant, 201>): string {
    return answer.data.grant.grantId;
}
