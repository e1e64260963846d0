# syntax=docker/dockerfile:1
# Image of one Ruilplein frontend, from the repository root:
#   docker build -f infra/docker/frontend.Dockerfile --build-arg APP=<shell|mfe-…> -t ruilplein/<APP>:<tag> .
ARG NODE_IMAGE=node:24.21.0-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.29.3-alpine

# 1. Manifests only, so the dependency layer stays cached while sources change.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /out && cp package-lock.json /out/ \
 && find . -name package.json -not -path '*/node_modules/*' | tar -cf - -T - | tar -xf - -C /out

# 2. Build with the dev dependencies (rspack, Module Federation). glibc image: the lock holds
#    rspack's linux-gnu bindings. `npm install`, not `npm ci`: see service.Dockerfile.
#    --ignore-scripts: the `node` dev dependency would fetch a second Node; the image has one.
#    ARG APP only after the install: every frontend's build then shares that one cached layer.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /out/ ./
RUN --mount=type=cache,target=/root/.npm npm install --ignore-scripts --no-audit --no-fund
COPY . .
ARG APP
RUN test -n "$APP" || (echo "build arg APP is required" >&2; exit 1)
RUN npm run build -w "@ruilplein/${APP}" && test -f "${APP}/dist/index.html" -o -f "${APP}/dist/mf-manifest.json"
# The web root and server block of this APP: the shell at /, a remote under /mfe/<name>/ (the
# Ingress forwards the path unchanged).
RUN mkdir -p /out/html \
 && if [ "$APP" = "shell" ]; then \
      cp -a "${APP}/dist/." /out/html/ && cp infra/docker/nginx.shell.conf /out/app.conf; \
    else \
      prefix="${APP#mfe-}" && mkdir -p "/out/html/mfe/${prefix}" \
      && cp -a "${APP}/dist/." "/out/html/mfe/${prefix}/" \
      && sed "s/__PREFIX__/${prefix}/g" infra/docker/nginx.remote.conf > /out/app.conf; \
    fi

# 3. Runtime: unprivileged nginx (uid 101) on 8080, writing only under /tmp.
FROM ${NGINX_IMAGE} AS runtime
COPY infra/docker/nginx.conf /etc/nginx/nginx.conf
COPY --from=build /out/app.conf /etc/nginx/app.conf
COPY --from=build /out/html/ /usr/share/nginx/html/
USER 101:101
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
# Not the image's entrypoint scripts: they rewrite files under /etc/nginx, and the root FS is read-only.
ENTRYPOINT []
CMD ["nginx", "-g", "daemon off;"]
