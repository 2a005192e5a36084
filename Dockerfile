# syntax=docker/dockerfile:1

# ---- build: compile TypeScript with the dev dependencies ----
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY console/package.json ./console/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY proto ./proto
COPY src ./src
RUN npx nest build
# The operator console (an npm workspace): static files served at /console.
COPY console ./console
RUN npm run build:console

# ---- runtime: production dependencies only, non-root ----
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    GRPC_PORT=50051 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY console/package.json ./console/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY proto ./proto
# DATA_DIR holds the embedded database when DATABASE_URL is not set.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080 50051
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
