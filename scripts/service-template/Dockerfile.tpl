# Build context: the repository root (docker compose sets it).
FROM node:20-bookworm-slim AS build
WORKDIR /repo
COPY . .
RUN npm ci --ignore-scripts && npx tsc -b apps/{{name}} && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT={{port}}
WORKDIR /repo
COPY --from=build --chown=node:node /repo /repo
USER node
EXPOSE {{port}}
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/v1/{{name}}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "apps/{{name}}/dist/main.js"]
