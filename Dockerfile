# Packyard: the built admin UI and the server (TypeScript run by tsx) on Node 22 (an LTS line still supported; the project runs on Node 20.19 or later), unprivileged.
# Build: docker build -t packyard .   Run: see compose.yaml and docs/deployment.md.

FROM node:22-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 normally installs a prebuilt binary; the compilers are for when none fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY web/package.json ./web/
RUN npm ci --no-audit --no-fund
COPY . .
# The admin UI (web/, a workspace) is built to web/dist; then only production packages stay.
RUN npm run build:web && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# git: syncs clone and archive repositories; ca-certificates: https git hosts, S3, OAuth.
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates tini \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/src ./src
COPY --from=build /app/web/dist ./web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/packyard.js"]
CMD ["serve"]
