// drizzle-kit reads this to diff src/db/schema against a scratch folder; see docs/decisions.md (migrations).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './var/drizzle',
});
