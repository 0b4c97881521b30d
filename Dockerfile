# One image for every role of the product; SERVICE_ROLE picks the process (all, command, query,
# projector, gateway). Two stages: the build stage installs every dependency and compiles the
# frontend (Vite) and the server (`npm run build:server`, tsc); the runtime stage holds the
# server packages' production dependencies, their compiled JavaScript and frontend/dist, and runs
# them with node as the unprivileged user `node`: no TypeScript, tsx, Vite, vitest, ESLint,
# Playwright or embedded PostgreSQL (DATABASE_URL names the database).
#   docker build --build-arg RR_COMMIT=$(git rev-parse HEAD) -t reading-rooms:1.0.0 .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY platform/package.json platform/
COPY identity/package.json identity/
COPY insights/package.json insights/
COPY events/package.json events/
COPY domain/package.json domain/
COPY command-service/package.json command-service/
COPY query-service/package.json query-service/
COPY projections/package.json projections/
COPY integrations/package.json integrations/
COPY server/package.json server/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
RUN npm ci --no-audit --no-fund
COPY . .
# The commit the image is built from (the build context has no .git): /api/healthz and rr_build_info.
ARG RR_COMMIT=unknown
RUN npm run build && RR_COMMIT=${RR_COMMIT} npm run build:server

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY platform/package.json platform/
COPY identity/package.json identity/
COPY insights/package.json insights/
COPY events/package.json events/
COPY domain/package.json domain/
COPY command-service/package.json command-service/
COPY query-service/package.json query-service/
COPY projections/package.json projections/
COPY integrations/package.json integrations/
COPY server/package.json server/
COPY frontend/package.json frontend/
COPY tests/package.json tests/
# Only the server's workspaces: the frontend's and the tests' packages stay out.
RUN npm ci --omit=dev --no-audit --no-fund -w contracts -w platform -w identity -w insights -w events -w domain \
      -w command-service -w query-service -w projections -w integrations -w server \
    && npm cache clean --force \
    && mkdir /data && chown node:node /data
COPY --from=build /app/contracts/dist contracts/dist
COPY --from=build /app/platform/dist platform/dist
COPY --from=build /app/identity/dist identity/dist
COPY --from=build /app/insights/dist insights/dist
COPY --from=build /app/events/dist events/dist
COPY --from=build /app/domain/dist domain/dist
COPY --from=build /app/command-service/dist command-service/dist
COPY --from=build /app/query-service/dist query-service/dist
COPY --from=build /app/projections/dist projections/dist
COPY --from=build /app/integrations/dist integrations/dist
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/frontend/dist frontend/dist
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
USER node
EXPOSE 8080
# The projector serves no HTTP; every other role answers /api/healthz (the gateway through a
# query-service).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 CMD ["node", "-e", "process.env.SERVICE_ROLE==='projector'?process.exit(0):fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--conditions=rr-compiled", "server/dist/src/main.js"]
