// Tables of the checkout module (see its migration range in src/db/migrations).
export {};
