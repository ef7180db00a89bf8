CREATE TABLE "exchange_rate_history" (
	"currency" text NOT NULL,
	"rate_date" date NOT NULL,
	"rate_per_eur" numeric(18, 8) NOT NULL,
	"source" varchar(20) NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rate_history_pkey" PRIMARY KEY("currency","rate_date")
);
