# syntax=docker/dockerfile:1
# itinera: one image for the API (`serve`), the queue workers (`worker`) and operator commands.
# Built once: dependencies and the bundle are made here, never when a container starts.

# ---- build: all dependencies, the esbuild bundle ----
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime dependencies only ----
# --omit=dev leaves out the build and development tools (esbuild, tsx, the embedded PGlite: the
# image always runs on DATABASE_URL). npm still installs PGlite (27 MB) as drizzle-orm's optional
# peer, so it is removed by hand; the code imports it only without DATABASE_URL, and then stops
# with exit 78 naming DATABASE_URL. No install script runs (package.json's allowScripts).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/package.json
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/@electric-sql/pglite

# ---- runtime: Node 22 LTS (20 reached its end of life in April 2026) ----
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# read at run time: the SQL migrations, the demo data, the import schema
COPY --from=build --chown=node:node /app/src/db/migrations ./src/db/migrations
COPY --from=build --chown=node:node /app/data ./data
COPY --from=build --chown=node:node /app/package.json ./package.json
# var/media exists in the image so a new named volume there starts owned by node (MEDIA_DIR)
RUN mkdir -p /app/var/media && chown -R node:node /app/var
USER node
EXPOSE 3000
# /livez: the process answers (readiness, /readyz, is the load balancer's and orchestrator's)
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/livez').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "--enable-source-maps", "dist/main.js"]
CMD ["serve"]
