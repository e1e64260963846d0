{{- define "ruilplein-lib.deployment" -}}
{{- $kind := include "ruilplein-lib.kind" . -}}
{{- $name := include "ruilplein-lib.name" . -}}
{{- $probes := required (printf "%s: probes is required" .Chart.Name) .Values.probes -}}
{{- $res := required (printf "%s: resources is required" .Chart.Name) .Values.resources -}}
{{- $uid := .Values.runAsUser | default 10001 -}}
{{- $autoscaling := include "ruilplein-lib.autoscaling" . | fromJson -}}
{{- $g := include "ruilplein-lib.global" . | fromJson -}}
{{- $prom := and (eq $kind "service") ($g.otel.prometheus | default dict).enabled -}}
{{- $promPort := ($g.otel.prometheus | default dict).port | default 9464 -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "ruilplein-lib.labels" . | nindent 4 }}
spec:
  {{- if not $autoscaling.enabled }}
  replicas: {{ .Values.replicaCount | default 1 }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "ruilplein-lib.selectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  template:
    metadata:
      labels:
        {{- include "ruilplein-lib.labels" . | nindent 8 }}
      {{- if or .Values.config .Values.files .Values.podAnnotations $prom }}
      annotations:
        {{- if $prom }}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $promPort | quote }}
        prometheus.io/path: /metrics
        {{- end }}
        {{- with .Values.config }}
        checksum/config: {{ toYaml . | sha256sum }}
        {{- end }}
        {{- with .Values.files }}
        checksum/files: {{ toYaml . | sha256sum }}
        {{- end }}
        {{- with .Values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- end }}
    spec:
      serviceAccountName: {{ $name }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds | default 30 }}
      securityContext:
        runAsNonRoot: true
        runAsUser: {{ $uid }}
        runAsGroup: {{ .Values.runAsGroup | default $uid }}
        fsGroup: {{ .Values.runAsGroup | default $uid }}
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: {{ $name }}
          image: {{ include "ruilplein-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy | default "IfNotPresent" }}
          ports:
            - name: http
              containerPort: 8080
              protocol: TCP
            {{- if $prom }}
            - name: metrics
              containerPort: {{ $promPort }}
              protocol: TCP
            {{- end }}
          {{- if eq $kind "service" }}
          env:
            {{- include "ruilplein-lib.env" . | nindent 12 }}
          {{- end }}
          {{- if .Values.config }}
          envFrom:
            - configMapRef:
                name: {{ $name }}
          {{- end }}
          livenessProbe:
            {{- include "ruilplein-lib.probe" (dict "probe" (required (printf "%s: probes.liveness is required" .Chart.Name) $probes.liveness) "which" "liveness" "chart" .Chart.Name) | nindent 12 }}
          readinessProbe:
            {{- include "ruilplein-lib.probe" (dict "probe" (required (printf "%s: probes.readiness is required" .Chart.Name) $probes.readiness) "which" "readiness" "chart" .Chart.Name) | nindent 12 }}
          resources:
            requests:
              cpu: {{ required (printf "%s: resources.requests.cpu is required" .Chart.Name) ($res.requests | default dict).cpu | quote }}
              memory: {{ required (printf "%s: resources.requests.memory is required" .Chart.Name) ($res.requests | default dict).memory | quote }}
            limits:
              {{- with ($res.limits | default dict).cpu }}
              cpu: {{ . | quote }}
              {{- end }}
              memory: {{ required (printf "%s: resources.limits.memory is required" .Chart.Name) ($res.limits | default dict).memory | quote }}
          securityContext:
            runAsNonRoot: true
            runAsUser: {{ $uid }}
            readOnlyRootFilesystem: true
            allowPrivilegeEscalation: false
            privileged: false
            capabilities:
              drop: ["ALL"]
            seccompProfile:
              type: RuntimeDefault
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- $dir := .Values.filesMountDir }}
            {{- range $file, $_ := .Values.files }}
            - name: files
              mountPath: {{ printf "%s/%s" (required "filesMountDir is required when files is set" $dir) $file }}
              subPath: {{ $file }}
              readOnly: true
            {{- end }}
            {{- with .Values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpSizeLimit | default "64Mi" }}
        {{- if .Values.files }}
        - name: files
          configMap:
            name: {{ $name }}-files
        {{- end }}
        {{- with .Values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}
