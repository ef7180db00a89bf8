CREATE TABLE "admin_audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"actor" varchar(255) NOT NULL,
	"action" varchar(60) NOT NULL,
	"resource_type" varchar(40),
	"resource_id" varchar(60),
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" varchar(64),
	"created_at" timestamp with time zone NOT NULL
);

CREATE TABLE "admin_notification_reads" (
	"notification_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "admin_notification_reads_user_id_notification_id_pk" PRIMARY KEY("user_id","notification_id")
);

CREATE TABLE "admin_role_permissions" (
	"role_id" integer NOT NULL,
	"permission" varchar(60) NOT NULL,
	CONSTRAINT "admin_role_permissions_role_id_permission_pk" PRIMARY KEY("role_id","permission")
);

CREATE TABLE "admin_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(50) NOT NULL,
	"label" varchar(100) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "admin_sessions" (
	"id_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"csrf_token" varchar(64) NOT NULL,
	"ip" varchar(64),
	"user_agent" varchar(300),
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);

CREATE TABLE "admin_user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "admin_user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);

CREATE TABLE "admin_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(255) NOT NULL,
	"name" varchar(100) NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE set null ON UPDATE no action;

ALTER TABLE "admin_notification_reads" ADD CONSTRAINT "admin_notification_reads_notification_id_admin_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."admin_notifications"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "admin_notification_reads" ADD CONSTRAINT "admin_notification_reads_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "admin_role_permissions" ADD CONSTRAINT "admin_role_permissions_role_id_admin_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."admin_roles"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "admin_sessions" ADD CONSTRAINT "admin_sessions_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "admin_user_roles" ADD CONSTRAINT "admin_user_roles_user_id_admin_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "admin_user_roles" ADD CONSTRAINT "admin_user_roles_role_id_admin_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."admin_roles"("id") ON DELETE cascade ON UPDATE no action;

CREATE INDEX "admin_audit_log_created" ON "admin_audit_log" USING btree ("created_at");

CREATE INDEX "admin_audit_log_resource" ON "admin_audit_log" USING btree ("resource_type","resource_id");

CREATE UNIQUE INDEX "admin_roles_name" ON "admin_roles" USING btree ("name");

CREATE INDEX "admin_sessions_user" ON "admin_sessions" USING btree ("user_id");

CREATE INDEX "admin_sessions_expires" ON "admin_sessions" USING btree ("expires_at");

CREATE UNIQUE INDEX "admin_users_email" ON "admin_users" USING btree (lower("email"));

INSERT INTO "admin_roles" ("name", "label") VALUES ('super_admin', 'Super admin') ON CONFLICT DO NOTHING;
