{{/* One name per deployable: folder = chart = image = release/service name. */}}
{{- define "ruilplein-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
.Values.global over the platform defaults (the in-cluster store services of the umbrella), as
JSON: a chart released on its own needs no global block. Booleans that default to true are not
listed here (merging cannot set false over true); templates test them with `ne … false`.
*/}}
{{- define "ruilplein-lib.global" -}}
{{- $defaults := dict
  "environment" "development" "mode" "" "imageRegistry" "" "imageTag" "" "logLevel" "info"
  "authJwksUrl" "http://auth:8080/.well-known/jwks.json"
  "nats" (dict "url" "nats://nats:4222")
  "mongodb" (dict "url" "mongodb://mongodb:27017")
  "redis" (dict "url" "redis://redis:6379")
  "otel" (dict) "autoscaling" (dict) "networkPolicy" (dict) "secrets" (dict) -}}
{{- toJson (mustMergeOverwrite $defaults (deepCopy (.Values.global | default dict))) -}}
{{- end -}}

{{/* Rules every environment's values must follow; a violation fails rendering. */}}
{{- define "ruilplein-lib.guard" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- if not (has $g.environment (list "development" "production")) -}}
{{- fail (printf "global.environment must be development or production, got %q" $g.environment) -}}
{{- end -}}
{{- if and (eq $g.environment "production") (eq $g.mode "local") -}}
{{- fail "global.mode=local (RUILPLEIN_MODE=local: mail outbox, seed data) is not allowed with global.environment=production" -}}
{{- end -}}
{{- range $name, $s := $g.secrets -}}
{{- range $k, $_ := $s -}}
{{- if ne $k "existingSecret" -}}
{{- fail (printf "global.secrets.%s.%s: secrets are referenced by name only (existingSecret), never given as values" $name $k) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* .Values.autoscaling with global.autoscaling over it (production turns it on everywhere), as JSON. */}}
{{- define "ruilplein-lib.autoscaling" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- toJson (mustMergeOverwrite (deepCopy (.Values.autoscaling | default dict)) $g.autoscaling) -}}
{{- end -}}

{{/*
Defaults of a deployable by kind, under the chart's own values (a chart's values.yaml names only
what differs). Lists and maps, not booleans, so a chart's value always wins over a default.
*/}}
{{- define "ruilplein-lib.defaults" -}}
image:
  repository: ruilplein/{{ .Chart.Name }}
  pullPolicy: IfNotPresent
replicaCount: 1
autoscaling:
  minReplicas: 2
  maxReplicas: 4
  targetCPUUtilizationPercentage: 70
podDisruptionBudget:
  maxUnavailable: 1
{{- if eq (include "ruilplein-lib.kind" .) "service" }}
runAsUser: 10001
resources:
  requests: {cpu: 50m, memory: 128Mi}
  limits: {cpu: "1", memory: 384Mi}
probes:
  liveness: {path: /healthz, initialDelaySeconds: 5}
  readiness: {path: /readyz, periodSeconds: 5}
networkPolicy:
  from: [gateway]
  to: [auth]
{{- else }}
# nginx-unprivileged's user
runAsUser: 101
resources:
  requests: {cpu: 10m, memory: 32Mi}
  limits: {cpu: 250m, memory: 64Mi}
probes:
  liveness: {path: /healthz}
  readiness: {path: /healthz, periodSeconds: 5}
networkPolicy:
  from: [ingress-controller]
{{- end }}
{{- end -}}

{{- define "ruilplein-lib.kind" -}}
{{- $kind := required (printf "%s: value 'kind' is required (service|frontend)" .Chart.Name) .Values.kind -}}
{{- if not (has $kind (list "service" "frontend")) -}}
{{- fail (printf "%s: value 'kind' must be service or frontend, got %q" .Chart.Name $kind) -}}
{{- end -}}
{{- $kind -}}
{{- end -}}

{{- define "ruilplein-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ruilplein-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "ruilplein-lib.labels" -}}
{{ include "ruilplein-lib.selectorLabels" . }}
app.kubernetes.io/part-of: ruilplein
app.kubernetes.io/component: {{ include "ruilplein-lib.kind" . }}
app.kubernetes.io/version: {{ include "ruilplein-lib.tag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Image tag: image.tag, else global.imageTag, else .Chart.AppVersion; "latest" is refused. */}}
{{- define "ruilplein-lib.tag" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- $tag := .Values.image.tag | default $g.imageTag | default .Chart.AppVersion | toString -}}
{{- if or (eq $tag "latest") (eq $tag "") -}}
{{- fail (printf "%s: image tag %q is not allowed; set image.tag (or global.imageTag) to a version" .Chart.Name $tag) -}}
{{- end -}}
{{- $tag -}}
{{- end -}}

{{- define "ruilplein-lib.image" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- $repo := required (printf "%s: image.repository is required" .Chart.Name) .Values.image.repository -}}
{{- $registry := $g.imageRegistry | default "" -}}
{{- if $registry -}}{{ printf "%s/%s:%s" (trimSuffix "/" $registry) $repo (include "ruilplein-lib.tag" .) }}{{- else -}}{{ printf "%s:%s" $repo (include "ruilplein-lib.tag" .) }}{{- end -}}
{{- end -}}

{{/* A URL env var from global.<store>: existingSecret (+ existingSecretKey) wins over url. */}}
{{- define "ruilplein-lib.storeEnv" -}}
{{- $store := index .g .store | default dict -}}
{{- if $store.existingSecret }}
- name: {{ .env }}
  valueFrom:
    secretKeyRef:
      name: {{ $store.existingSecret }}
      key: {{ $store.existingSecretKey | default "url" }}
{{- else }}
- name: {{ .env }}
  value: {{ required (printf "%s: global.%s.url or global.%s.existingSecret is required" .chart .store .store) $store.url | quote }}
{{- end }}
{{- end -}}

{{/*
NATS_URL. With global.nats.usersSecret each service connects as its own NATS user (natsUser,
default the chart's name), which may publish only its own subjects: the password is the key of
that name in the Secret, put into the URL by Kubernetes' $(VAR) expansion (so it must be URL-safe).
*/}}
{{- define "ruilplein-lib.natsEnv" -}}
{{- $nats := .g.nats | default dict -}}
{{- if $nats.usersSecret }}
{{- if $nats.existingSecret -}}
{{- fail (printf "%s: global.nats.usersSecret puts each service's user into global.nats.url; global.nats.existingSecret cannot be used with it" .chart) -}}
{{- end }}
{{- $url := required (printf "%s: global.nats.url is required with global.nats.usersSecret" .chart) $nats.url }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $nats.usersSecret }}
      key: {{ .user }}
- name: NATS_URL
  value: {{ regexReplaceAll "^([a-z]+)://" $url (printf "${1}://%s:$(NATS_PASSWORD)@" .user) | quote }}
{{- else }}
{{- include "ruilplein-lib.storeEnv" (merge (dict "store" "nats" "env" "NATS_URL") .) }}
{{- end }}
{{- end -}}

{{- define "ruilplein-lib.env" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- $uses := .Values.uses | default dict -}}
{{- $ctx := dict "g" $g "chart" .Chart.Name -}}
- name: PORT
  value: "8080"
- name: LOG_LEVEL
  value: {{ .Values.logLevel | default $g.logLevel | default "info" | quote }}
{{- if $uses.nats }}
{{- include "ruilplein-lib.natsEnv" (merge (dict "user" (.Values.natsUser | default .Chart.Name)) $ctx) }}
{{- end }}
{{- if $uses.mongodb }}
{{- include "ruilplein-lib.storeEnv" (merge (dict "store" "mongodb" "env" "MONGODB_URL") $ctx) }}
{{- end }}
{{- if $uses.redis }}
{{- include "ruilplein-lib.storeEnv" (merge (dict "store" "redis" "env" "REDIS_URL") $ctx) }}
{{- end }}
- name: AUTH_JWKS_URL
  value: {{ .Values.authJwksUrl | default $g.authJwksUrl | quote }}
{{- /* The proxies whose X-Forwarded-For entries count (service-kit client.ts): those in front of the
     gateway (global.ingressProxyHops), and the gateway itself for every service behind it. */}}
{{- /* hasKey, not a default: 0 (a gateway without anything in front) is a value too. */}}
{{- $ingressHops := ternary $g.ingressProxyHops 1 (hasKey $g "ingressProxyHops") }}
- name: TRUSTED_PROXY_HOPS
  value: {{ add $ingressHops (ternary 0 1 (eq .Values.facesIngress true)) | quote }}
{{- $prom := $g.otel.prometheus | default dict }}
{{- with $g.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
{{- end }}
{{- if or $g.otel.endpoint $prom.enabled }}
- name: OTEL_SERVICE_NAME
  value: {{ include "ruilplein-lib.name" $ | quote }}
{{- end }}
{{- /* A Prometheus scrape endpoint (service-kit telemetry.ts), beside OTLP when that is set too. */}}
{{- if $prom.enabled }}
- name: OTEL_METRICS_EXPORTER
  value: {{ ternary "otlp,prometheus" "prometheus" (not (empty $g.otel.endpoint)) | quote }}
- name: OTEL_EXPORTER_PROMETHEUS_HOST
  value: "0.0.0.0"
- name: OTEL_EXPORTER_PROMETHEUS_PORT
  value: {{ $prom.port | default 9464 | quote }}
{{- end }}
{{- if $g.mode }}
- name: RUILPLEIN_MODE
  value: {{ $g.mode | quote }}
{{- end }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- with $g.publicUrl }}
- name: PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- /* Development may leave a secret unnamed (the service then uses its local stand-in); production may not. */}}
{{- range .Values.secretEnv }}
{{- $secret := (index $g.secrets .secret | default dict).existingSecret }}
{{- if or $secret (eq $g.environment "production") }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "%s: env %s needs global.secrets.%s.existingSecret" $.Chart.Name .name .secret) $secret }}
      key: {{ .key }}
{{- end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "ruilplein-lib.probe" -}}
{{- $p := .probe -}}
httpGet:
  path: {{ required (printf "%s: probes.%s.path is required" .chart .which) $p.path }}
  port: http
initialDelaySeconds: {{ $p.initialDelaySeconds | default 0 }}
periodSeconds: {{ $p.periodSeconds | default 10 }}
timeoutSeconds: {{ $p.timeoutSeconds | default 2 }}
failureThreshold: {{ $p.failureThreshold | default 3 }}
{{- end -}}
