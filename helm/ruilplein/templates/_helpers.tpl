{{- define "ruilplein.labels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: ruilplein
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}


{{- /*
The NATS users of the in-cluster NATS, from files/nats-users.json (generated from the contracts'
registry by `npm run generate:nats`): {file, admin, names (the admin first)}, as JSON.
*/}}
{{- define "ruilplein.natsUsers" -}}
{{- $file := .Files.Get "files/nats-users.json" | fromJson -}}
{{- $names := list $file.admin -}}
{{- range $file.users }}{{ $names = append $names .user }}{{ end -}}
{{- dict "file" $file "admin" $file.admin "names" $names | toJson -}}
{{- end -}}
