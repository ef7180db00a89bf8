CREATE TABLE "task_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"trigger" varchar(20) NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"message" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL
);

CREATE INDEX "task_runs_name_finished_at_idx" ON "task_runs" USING btree ("name","finished_at");
