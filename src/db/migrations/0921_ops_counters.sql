CREATE TABLE "ops_counters" (
	"name" varchar(100) NOT NULL,
	"labels" varchar(255) DEFAULT '' NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ops_counters_pkey" PRIMARY KEY("name","labels")
);
