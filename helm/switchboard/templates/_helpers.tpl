{{/* Names ------------------------------------------------------------------------------------ */}}

{{- define "switchboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* release-chart, or the release name alone when it already contains the chart name. */}}
{{- define "switchboard.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "switchboard.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels ------------------------------------------------------------------------------------ */}}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "switchboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "switchboard.labels" -}}
helm.sh/chart: {{ include "switchboard.chart" . }}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ include "switchboard.imageTag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: switchboard
{{- end }}

{{/* The server pods (the migration Job's pods carry component=migrations instead). */}}
{{- define "switchboard.serverSelectorLabels" -}}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end }}

{{/* Pieces shared by the Deployment and the migration Job -------------------------------------- */}}

{{- define "switchboard.imageTag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{- define "switchboard.image" -}}
{{- printf "%s:%s" .Values.image.repository (include "switchboard.imageTag" .) }}
{{- end }}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "switchboard.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret the pods read: the operator's existingSecret or the chart's own. */}}
{{- define "switchboard.secretName" -}}
{{- default (include "switchboard.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* The chart's own Secret data (variable -> value), only the variables that are set and in use. */}}
{{- define "switchboard.secretData" -}}
{{- $s := .Values.secrets }}
{{- $data := dict }}
{{- if eq .Values.database.mode "external" }}
{{- $_ := set $data "DATABASE_URL" $s.databaseUrl }}
{{- end }}
{{- if .Values.redis.enabled }}
{{- $_ := set $data "REDIS_URL" $s.redisUrl }}
{{- end }}
{{- with $s.adminApiKey }}{{ $_ := set $data "ADMIN_API_KEY" . }}{{ end }}
{{- with $s.secretsKey }}{{ $_ := set $data "SECRETS_KEY" . }}{{ end }}
{{- with $s.routerApiKey }}{{ $_ := set $data "ROUTER_API_KEY" . }}{{ end }}
{{- toJson $data }}
{{- end }}

{{/* Does the chart create its own Secret? "true" or "". */}}
{{- define "switchboard.ownSecret" -}}
{{- if and (not .Values.secrets.existingSecret) (include "switchboard.secretData" . | fromJson) }}true{{ end }}
{{- end }}

{{/* Does a hook Job migrate before the pods start? "true" or "". */}}
{{- define "switchboard.migrationJob" -}}
{{- if and (eq .Values.database.mode "external") .Values.migrations.enabled }}true{{ end }}
{{- end }}

{{/* A value from values.yaml as an environment string: YAML numbers arrive as float64, and
     1048576 must not become "1.048576e+06". */}}
{{- define "switchboard.envString" -}}
{{- if and (kindIs "float64" .) (eq (floor .) .) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- end }}

{{/* The ConfigMap's data as JSON: the chart's own settings, then the operator's config (which
     wins for the ingress-derived ones; the schema keeps the chart-owned names out of config). */}}
{{- define "switchboard.configData" -}}
{{- $v := .Values }}
{{- $data := dict
  "PORT" (toString $v.ports.http)
  "GRPC_PORT" (toString $v.ports.grpc)
  "SHUTDOWN_TIMEOUT_MS" (toString (mul $v.shutdown.drainSeconds 1000))
  "DATABASE_MIGRATIONS_RUN" (ternary "false" "true" (eq (include "switchboard.migrationJob" .) "true"))
}}
{{- if $v.metrics.enabled }}
{{- $_ := set $data "METRICS_PORT" (toString $v.ports.metrics) }}
{{- end }}
{{- if eq $v.database.mode "embedded" }}
{{- $_ := set $data "DATA_DIR" "/data" }}
{{- end }}
{{- if $v.ingress.enabled }}
{{- $_ := set $data "PUBLIC_URL" (printf "%s://%s" (ternary "https" "http" $v.ingress.tls.enabled) $v.ingress.host) }}
{{- $_ := set $data "TRUST_PROXY" "true" }}
{{- if $v.ingress.grpc.enabled }}
{{- $_ := set $data "PUBLIC_GRPC_ADDRESS" (printf "%s:%s" $v.ingress.grpc.host (ternary "443" "80" $v.ingress.grpc.tls.enabled)) }}
{{- end }}
{{- end }}
{{- range $name, $value := $v.config }}
{{- if not (kindIs "invalid" $value) }}
{{- $_ := set $data $name (include "switchboard.envString" $value) }}
{{- end }}
{{- end }}
{{- toJson $data }}
{{- end }}

{{- define "switchboard.terminationGracePeriodSeconds" -}}
{{- add .Values.shutdown.preStopSleepSeconds .Values.shutdown.drainSeconds .Values.shutdown.exitMarginSeconds }}
{{- end }}

{{/* The pod-level settings both the server and the migration Job use. */}}
{{- define "switchboard.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
automountServiceAccountToken: false
enableServiceLinks: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Render-time checks: combinations that would deploy something broken ------------------------- */}}
{{- define "switchboard.validate" -}}
{{- $v := .Values }}
{{- if and (not $v.redis.enabled) (or $v.autoscaling.enabled (gt (int $v.replicaCount) 1)) }}
{{- fail "replicaCount > 1 or autoscaling.enabled needs Redis: without REDIS_URL every replica keeps its own in-process state (set redis.enabled=true and secrets.redisUrl or secrets.existingSecret)" }}
{{- end }}
{{- if and (eq $v.database.mode "embedded") (or $v.autoscaling.enabled (gt (int $v.replicaCount) 1)) }}
{{- fail "database.mode=embedded runs exactly one replica (PGlite in /data belongs to one pod): set database.mode=external for more" }}
{{- end }}
{{- if not $v.secrets.existingSecret }}
{{- if and (eq $v.database.mode "external") (not $v.secrets.databaseUrl) }}
{{- fail "database.mode=external needs secrets.databaseUrl or secrets.existingSecret" }}
{{- end }}
{{- if and (eq $v.database.mode "external") (not $v.secrets.secretsKey) }}
{{- fail "database.mode=external needs secrets.secretsKey (openssl rand -base64 32) or secrets.existingSecret: replicas must share the key stored credentials are sealed with" }}
{{- end }}
{{- if and $v.redis.enabled (not $v.secrets.redisUrl) }}
{{- fail "redis.enabled needs secrets.redisUrl or secrets.existingSecret" }}
{{- end }}
{{- if and (ne $v.database.mode "external") $v.secrets.databaseUrl }}
{{- fail "secrets.databaseUrl is set but database.mode is embedded: set database.mode=external to use it" }}
{{- end }}
{{- if and (not $v.redis.enabled) $v.secrets.redisUrl }}
{{- fail "secrets.redisUrl is set but redis.enabled is false: set redis.enabled=true to use it" }}
{{- end }}
{{- end }}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) }}
{{- fail "autoscaling.minReplicas must not exceed autoscaling.maxReplicas" }}
{{- end }}
{{- if and $v.podDisruptionBudget.enabled (kindIs "invalid" $v.podDisruptionBudget.minAvailable) (kindIs "invalid" $v.podDisruptionBudget.maxUnavailable) }}
{{- fail "podDisruptionBudget.enabled needs minAvailable or maxUnavailable" }}
{{- end }}
{{- if and $v.ingress.enabled $v.ingress.tls.enabled (not $v.ingress.tls.secretName) }}
{{- fail "ingress.tls.enabled needs ingress.tls.secretName" }}
{{- end }}
{{- if and $v.ingress.enabled $v.ingress.grpc.enabled $v.ingress.grpc.tls.enabled (not $v.ingress.grpc.tls.secretName) }}
{{- fail "ingress.grpc.tls.enabled needs ingress.grpc.tls.secretName" }}
{{- end }}
{{- if and $v.ingress.grpc.enabled (not $v.ingress.enabled) }}
{{- fail "ingress.grpc.enabled needs ingress.enabled" }}
{{- end }}
{{- if and $v.metrics.serviceMonitor.enabled (not $v.metrics.enabled) }}
{{- fail "metrics.serviceMonitor.enabled needs metrics.enabled" }}
{{- end }}
{{- if and $v.database.embedded.persistence.enabled (ne $v.database.mode "embedded") }}
{{- fail "database.embedded.persistence.enabled only applies to database.mode=embedded" }}
{{- end }}
{{- end }}
