# sds in a container: `docker build -t sds .` then run it with DATABASE_URL (see docker-compose.yml).
# Not built in this repository's CI (no Docker there): keep it minimal.

# Build stage: install everything (the build needs the development dependencies), build dist/, then
# drop the development dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: the built server, its production dependencies and the files it reads at run time.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 SDS_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/generated ./generated
COPY --from=build /app/schemas ./schemas
COPY --from=build /app/src/store/migrations ./src/store/migrations
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/server.js"]
