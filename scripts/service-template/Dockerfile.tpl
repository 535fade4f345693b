# syntax=docker/dockerfile:1.7-labs
# Build context: the repository root (docker compose sets it). A pruned workspace: the image holds
# the {{name}} service, the libraries it is built from (libs/db, libs/client, libs/core) and the
# production dependencies of those alone, not the whole repository.
FROM node:20-bookworm-slim AS build
WORKDIR /repo
# Every workspace's manifest (npm checks them against the lockfile), no other workspace's sources.
COPY package.json package-lock.json tsconfig.base.json ./
COPY --parents apps/*/package.json libs/*/package.json ./
# The {{name}} workspace's dependencies, and the root's (TypeScript) to build it.
RUN npm ci --ignore-scripts --workspace apps/{{name}} --include-workspace-root
COPY libs/db/ libs/db/
COPY libs/client/ libs/client/
COPY libs/core/ libs/core/
COPY apps/{{name}}/ apps/{{name}}/
RUN npx tsc -b apps/{{name}} \
  && npm prune --omit=dev --ignore-scripts --workspace apps/{{name}}

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT={{port}}
WORKDIR /repo
COPY --from=build --chown=node:node /repo/package.json /repo/package.json
COPY --from=build --chown=node:node /repo/node_modules /repo/node_modules
COPY --from=build --chown=node:node /repo/libs/db /repo/libs/db
COPY --from=build --chown=node:node /repo/libs/client /repo/libs/client
COPY --from=build --chown=node:node /repo/libs/core /repo/libs/core
COPY --from=build --chown=node:node /repo/apps/{{name}} /repo/apps/{{name}}
USER node
EXPOSE {{port}}
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/v1/{{name}}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The OpenTelemetry SDK first (it does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set).
CMD ["node", "--require", "./libs/core/dist/tracing-preload.js", "apps/{{name}}/dist/main.js"]
