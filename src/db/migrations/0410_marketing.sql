CREATE TABLE "marketing_remote_ids" (
	"account" varchar(255) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"name" varchar(255) NOT NULL,
	"remote_id" varchar(50) NOT NULL,
	"resolved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "marketing_remote_ids_account_kind_name_pk" PRIMARY KEY("account","kind","name")
);
