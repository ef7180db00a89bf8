// Tables of the newsletter module (see its migration range in src/db/migrations).
export {};
