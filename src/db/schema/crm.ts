// Tables of the CRM mirror and the leads module (see its migration range in src/db/migrations).
export {};
