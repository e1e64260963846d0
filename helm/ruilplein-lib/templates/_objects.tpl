{{- define "ruilplein-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "ruilplein-lib.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: 8080
      targetPort: http
      protocol: TCP
{{- end -}}

{{- define "ruilplein-lib.serviceaccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
automountServiceAccountToken: false
{{- end -}}

{{/* Optional: rendered only when .Values.config has entries (mounted as environment). */}}
{{- define "ruilplein-lib.configmap" -}}
{{- if .Values.config -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
data:
  {{- range $k, $v := .Values.config }}
  {{ $k }}: {{ $v | toString | quote }}
  {{- end }}
{{- end -}}
{{- end -}}

{{- define "ruilplein-lib.hpa" -}}
{{- $a := include "ruilplein-lib.autoscaling" . | fromJson -}}
{{- if $a.enabled -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "ruilplein-lib.name" . }}
  minReplicas: {{ $a.minReplicas | default 2 }}
  maxReplicas: {{ required (printf "%s: autoscaling.maxReplicas is required" .Chart.Name) $a.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $a.targetCPUUtilizationPercentage | default 70 }}
{{- end -}}
{{- end -}}

{{/* Only when more than one pod can run. */}}
{{- define "ruilplein-lib.pdb" -}}
{{- $a := include "ruilplein-lib.autoscaling" . | fromJson -}}
{{- if or $a.enabled (gt (int (.Values.replicaCount | default 1)) 1) -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
spec:
  maxUnavailable: {{ (.Values.podDisruptionBudget | default dict).maxUnavailable | default 1 }}
  selector:
    matchLabels:
      {{- include "ruilplein-lib.selectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}

{{/*
NetworkPolicy. Ingress on 8080 from networkPolicy.from: "gateway" (its pods), "ingress-controller"
(global.networkPolicy.ingressControllerSelector, else its namespace), plus extraIngressFrom;
nothing else. Egress: DNS; HTTP to networkPolicy.to: "services" (every service: the gateway) or
"auth" (its JWKS); the store, NATS and OTel ports this deployable uses (any destination:
production stores are external); plus extraEgress.
*/}}
{{- define "ruilplein-lib.networkpolicy" -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- $gnp := $g.networkPolicy -}}
{{- $np := .Values.networkPolicy | default dict -}}
{{- $from := $np.from | default list -}}
{{- $to := $np.to | default list -}}
{{- $uses := .Values.uses | default dict -}}
{{- $ports := $gnp.ports | default dict -}}
{{- if and (ne $gnp.enabled false) (ne $np.enabled false) -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "ruilplein-lib.name" . }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "ruilplein-lib.selectorLabels" . | nindent 6 }}
  policyTypes: ["Ingress", "Egress"]
  {{- $prom := $g.otel.prometheus | default dict }}
  {{- $scraped := and $prom.enabled (eq (include "ruilplein-lib.kind" .) "service") }}
  {{- if or $from $np.extraIngressFrom $scraped }}
  ingress:
    {{- if or $from $np.extraIngressFrom }}
    - ports:
        - port: 8080
          protocol: TCP
      from:
        {{- if has "gateway" $from }}
        - podSelector:
            matchLabels:
              app.kubernetes.io/name: gateway
        {{- end }}
        {{- if has "ingress-controller" $from }}
        {{- with $gnp.ingressControllerSelector }}
        {{- toYaml . | nindent 8 }}
        {{- else }}
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: {{ $gnp.ingressControllerNamespace | default "ingress-nginx" }}
        {{- end }}
        {{- end }}
        {{- with $np.extraIngressFrom }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    {{- end }}
    {{- /* The metrics port only to Prometheus: global.otel.prometheus.from, else its namespace. */}}
    {{- if $scraped }}
    - ports:
        - port: {{ $prom.port | default 9464 }}
          protocol: TCP
      from:
        {{- with $prom.from }}
        {{- toYaml . | nindent 8 }}
        {{- else }}
        - namespaceSelector:
            matchLabels:
              kubernetes.io/metadata.name: {{ $prom.namespace | default "monitoring" }}
        {{- end }}
    {{- end }}
  {{- else }}
  ingress: []
  {{- end }}
  egress:
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
    {{- if or (has "services" $to) (has "auth" $to) }}
    - to:
        - podSelector:
            matchLabels:
              app.kubernetes.io/part-of: ruilplein
              app.kubernetes.io/component: service
              {{- if not (has "services" $to) }}
              app.kubernetes.io/name: auth
              {{- end }}
      ports:
        - port: 8080
          protocol: TCP
    {{- end }}
    {{- if or $uses.nats $uses.mongodb $uses.redis $g.otel.endpoint }}
    - ports:
        {{- if $uses.nats }}
        - port: {{ $ports.nats | default 4222 }}
          protocol: TCP
        {{- end }}
        {{- if $uses.mongodb }}
        - port: {{ $ports.mongodb | default 27017 }}
          protocol: TCP
        {{- end }}
        {{- if $uses.redis }}
        - port: {{ $ports.redis | default 6379 }}
          protocol: TCP
        {{- end }}
        {{- if $g.otel.endpoint }}
        - port: {{ $ports.otlpHttp | default 4318 }}
          protocol: TCP
        {{- end }}
    {{- end }}
    {{- with $np.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end -}}
{{- end -}}

{{/* Files (name → content) mounted one by one (subPath) into filesMountDir, e.g. the shell's remotes.json. */}}
{{- define "ruilplein-lib.filesConfigmap" -}}
{{- if .Values.files -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "ruilplein-lib.name" . }}-files
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
data:
  {{- range $k, $v := .Values.files }}
  {{ $k }}: {{ $v | toString | quote }}
  {{- end }}
{{- end -}}
{{- end -}}

{{/* Everything a deployable renders, one document each. */}}
{{- define "ruilplein-lib.all" -}}
{{- include "ruilplein-lib.guard" . -}}
{{- $_ := mustMergeOverwrite .Values (mustMergeOverwrite (include "ruilplein-lib.defaults" . | fromYaml) (deepCopy .Values)) -}}
{{- $docs := list (include "ruilplein-lib.serviceaccount" .) (include "ruilplein-lib.configmap" .) (include "ruilplein-lib.filesConfigmap" .) (include "ruilplein-lib.service" .) (include "ruilplein-lib.deployment" .) (include "ruilplein-lib.hpa" .) (include "ruilplein-lib.pdb" .) (include "ruilplein-lib.networkpolicy" .) -}}
{{- range $docs }}
{{- if trim . }}
---
{{ . }}
{{- end }}
{{- end }}
{{- end -}}
