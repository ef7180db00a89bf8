// Tables of the ops module (see its migration range in src/db/migrations).
export {};
