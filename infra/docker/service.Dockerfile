# syntax=docker/dockerfile:1
# Image of one Ruilplein service, from the repository root:
#   docker build -f infra/docker/service.Dockerfile --build-arg SERVICE=<name> -t ruilplein/<name>:<tag> .
# Node 24 runs the TypeScript sources directly (type stripping): there is no build step.
# NODE_IMAGE builds, RUNTIME_IMAGE runs (the same image by default; `npm run images` gives a
# runtime base without npm or a shell).
ARG NODE_IMAGE=node:24.21.0-alpine
ARG RUNTIME_IMAGE=node:24.21.0-alpine

# 1. The manifests this service's install needs (root, packages/*, the service), so the dependency
#    layer below stays cached while only sources change.
FROM ${NODE_IMAGE} AS manifests
ARG SERVICE
RUN test -n "$SERVICE" || (echo "build arg SERVICE is required" >&2; exit 1)
WORKDIR /src
COPY . .
RUN test -f "services/${SERVICE}/src/main.ts" || (echo "services/${SERVICE}/src/main.ts not found" >&2; exit 1) \
 && mkdir /out && cp package.json package-lock.json /out/ \
 && find packages "services/${SERVICE}" -name package.json -not -path '*/node_modules/*' | tar -cf - -T - | tar -xf - -C /out

# 2. Production dependencies of this one workspace and the workspace packages it imports.
#    `npm install`, not `npm ci`: the lock lists rspack's native bindings only for the platforms
#    it was made on, which npm ci rejects; the versions still come from the lock.
FROM ${NODE_IMAGE} AS deps
ARG SERVICE
WORKDIR /app
COPY --from=manifests /out/ ./
RUN --mount=type=cache,target=/root/.npm \
    npm install --omit=dev --ignore-scripts --no-audit --no-fund \
      --workspace "services/${SERVICE}" --include-workspace-root=false

# 3. Runtime: sources over the dependencies, owned by root, run as an unprivileged user; nothing
#    is written outside /tmp (the root filesystem is read-only in Kubernetes).
FROM ${RUNTIME_IMAGE} AS runtime
ARG SERVICE
# Fewer glibc malloc arenas: image decoding (sharp) in worker threads otherwise fragments memory;
# 16 parallel 6300×6300 uploads peaked at 397 MB instead of 540 MB (npm run bench:upload).
ENV NODE_ENV=production \
    PORT=8080 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/ ./
COPY packages/ ./packages/
COPY services/${SERVICE}/ ./services/${SERVICE}/
WORKDIR /app/services/${SERVICE}
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "src/main.ts"]
