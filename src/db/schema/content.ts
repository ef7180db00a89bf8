// Tables of the content module (see its migration range in src/db/migrations).
export {};
