ALTER TABLE "hotels" ADD COLUMN "supplier_email" text;

ALTER TABLE "hotels" ADD COLUMN "supplier_name" text;

ALTER TABLE "hotels" ADD COLUMN "supplier_phone" text;

ALTER TABLE "activities" ADD COLUMN "supplier_email" text;

ALTER TABLE "activities" ADD COLUMN "supplier_name" text;

ALTER TABLE "activities" ADD COLUMN "supplier_phone" text;

ALTER TABLE "transfers" ADD COLUMN "supplier_email" text;

ALTER TABLE "transfers" ADD COLUMN "supplier_name" text;

ALTER TABLE "transfers" ADD COLUMN "supplier_phone" text;
