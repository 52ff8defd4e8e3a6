# The gateway image: one image, every process role (all, api, projector, notifier, scheduler)
# chosen by its command. Built in stages so the final image holds production dependencies only,
# no compiler toolchain, and runs as an unprivileged user.
#   docker build -t ledger-gateway .
ARG NODE_IMAGE=node:20-bookworm-slim

# better-sqlite3 compiles from source when no prebuilt binary fits: it needs a toolchain.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./

FROM toolchain AS production-dependencies
RUN npm ci --omit=dev --no-audit --no-fund

# Compiles to dist/ when package.json has a build script; without one, dist/ stays empty and the
# npm scripts run the TypeScript sources through tsx (a production dependency then).
FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig*.json ./
COPY src ./src
COPY projections ./projections
RUN npm run build --if-present && mkdir -p dist

FROM ${NODE_IMAGE} AS runtime
# tini runs as process 1: it passes `docker stop`'s SIGTERM on to the gateway, which then stops cleanly.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json tsconfig*.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY src ./src
COPY projections ./projections
# The code stays root's (read-only to the gateway); only the data directory is the gateway's own.
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
VOLUME /data
EXPOSE 8080
# Processes without a listener (projector, notifier, scheduler) turn this off in docker-compose.yml.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# What `npm start` runs, without npm and its shell in between: the gateway is tini's own child.
CMD ["node", "--single-threaded-gc", "src/cli/launch.cjs", "main"]
