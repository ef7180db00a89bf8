CREATE TABLE "crm_person_locks" (
	"email" varchar(255) PRIMARY KEY NOT NULL,
	"holder" varchar(64) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
