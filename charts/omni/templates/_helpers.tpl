{{/*
Shared helpers: names, labels, the per-service values merge, and the configuration every service reads.
The per-service resources themselves are in _component.tpl; components.yaml ranges over .Values.services.
*/}}

{{- define "omni.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-scoped prefix: "omni" for a release named omni, "<release>-omni" otherwise. */}}
{{- define "omni.fullname" -}}
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

{{/* Name of one service's objects (Deployment, Service, ...): e.g. omni-cms. Takes (dict "root" $ "name" "cms"). */}}
{{- define "omni.componentName" -}}
{{- printf "%s-%s" (include "omni.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "omni.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "omni.labels" -}}
helm.sh/chart: {{ include "omni.chart" . }}
{{ include "omni.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: omni
{{- end }}

{{- define "omni.selectorLabels" -}}
app.kubernetes.io/name: {{ include "omni.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of one service's objects. Takes (dict "root" $ "name" "cms"). */}}
{{- define "omni.componentLabels" -}}
{{ include "omni.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "omni.componentSelectorLabels" -}}
{{ include "omni.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end }}

{{- define "omni.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "omni.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "omni.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag | toString) }}
{{- end }}

{{/*
Deep overlay of .src onto .dst, in place. Written out instead of sprig's mergeOverwrite because mergo
may skip "empty" source values, so `create: false` or `enabled: false` would silently lose to a default.
*/}}
{{- define "omni.overlay" -}}
{{- $dst := .dst }}
{{- range $key, $value := .src }}
{{- if and (kindIs "map" $value) (kindIs "map" (get $dst $key)) }}
{{- include "omni.overlay" (dict "dst" (get $dst $key) "src" $value) }}
{{- else }}
{{- $_ := set $dst $key $value }}
{{- end }}
{{- end }}
{{- end }}

{{/* One service's effective values (serviceDefaults overlaid with services.<name>) as YAML. Takes (dict "root" $ "name" "cms"). */}}
{{- define "omni.serviceValues" -}}
{{- $svc := deepCopy .root.Values.serviceDefaults }}
{{- $own := get .root.Values.services .name | default dict }}
{{- include "omni.overlay" (dict "dst" $svc "src" (deepCopy $own)) }}
{{- toYaml $svc }}
{{- end }}

{{/* Whether a service is deployed by this release: "true" or "". Takes (dict "root" $ "name" "cms"). */}}
{{- define "omni.serviceCreated" -}}
{{- if hasKey .root.Values.services .name }}
{{- $svc := include "omni.serviceValues" . | fromYaml }}
{{- if $svc.create }}true{{ end }}
{{- end }}
{{- end }}

{{- define "omni.publicUrl" -}}
{{- if .Values.config.publicUrl }}
{{- .Values.config.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.ingress.tls) 0)) (first .Values.ingress.hosts) }}
{{- else }}
{{- printf "http://localhost:%v" .Values.ports.http }}
{{- end }}
{{- end }}

{{/* Required addresses: values.yaml defaults them to the infrastructure releases of deploy/README.md. */}}
{{- define "omni.kafkaBrokers" -}}
{{- required "config.eventBus.brokers is required (host:port of the Kafka brokers)" .Values.config.eventBus.brokers }}
{{- end }}

{{- define "omni.s3Endpoint" -}}
{{- required "config.objectStore.endpoint is required (host of the S3 API)" .Values.config.objectStore.endpoint }}
{{- end }}

{{- define "omni.keycloakUrl" -}}
{{- required "config.identity.url is required (the Keycloak base URL)" .Values.config.identity.url }}
{{- end }}

{{- define "omni.otlpEndpoint" -}}
{{- .Values.config.telemetry.otlpEndpoint }}
{{- end }}

{{/*
The ConfigMap's data: adapters, their addresses and every peer's address. Peers not deployed by this
release can be pointed elsewhere with services.<name>.grpcAddr (e.g. a service run by another team).
*/}}
{{- define "omni.configData" -}}
HTTP_PORT: {{ .Values.ports.http | quote }}
GRPC_PORT: {{ .Values.ports.grpc | quote }}
LOG_LEVEL: {{ .Values.config.logLevel | quote }}
PUBLIC_URL: {{ include "omni.publicUrl" . | quote }}
EVENT_BUS: {{ .Values.config.eventBus.adapter | quote }}
KAFKA_BROKERS: {{ include "omni.kafkaBrokers" . | quote }}
DOCUMENT_STORE: {{ .Values.config.documentStore.adapter | quote }}
OBJECT_STORE: {{ .Values.config.objectStore.adapter | quote }}
S3_ENDPOINT: {{ include "omni.s3Endpoint" . | quote }}
S3_PORT: {{ .Values.config.objectStore.port | quote }}
S3_USE_SSL: {{ .Values.config.objectStore.useSSL | quote }}
S3_REGION: {{ .Values.config.objectStore.region | quote }}
S3_PUBLIC_URL: {{ .Values.config.objectStore.publicUrl | quote }}
IDENTITY_PROVIDER: {{ .Values.config.identity.adapter | quote }}
KEYCLOAK_URL: {{ include "omni.keycloakUrl" . | quote }}
KEYCLOAK_ISSUER: {{ .Values.config.identity.issuer | default "" | quote }}
KEYCLOAK_REALM: {{ .Values.config.identity.realm | quote }}
KEYCLOAK_CLIENT_ID: {{ .Values.config.identity.clientId | quote }}
PAYMENTS: {{ .Values.config.payments.adapter | quote }}
MAIL: {{ .Values.config.mail.adapter | quote }}
STORES: {{ .Values.config.stores.adapter | quote }}
STORE_REGISTRY_FILE: {{ printf "/etc/omni/stores/%s" .Values.config.stores.registryKey | quote }}
{{- with .Values.config.stores.senderPartyId }}
DDEX_SENDER_PARTY_ID: {{ . | quote }}
{{- end }}
OTEL_EXPORTER_OTLP_ENDPOINT: {{ include "omni.otlpEndpoint" . | quote }}
{{- range $name := keys .Values.services | sortAlpha }}
{{- $ctx := dict "root" $ "name" $name }}
{{- $svc := include "omni.serviceValues" $ctx | fromYaml }}
{{- if $svc.create }}
{{ upper $name }}_GRPC_ADDR: {{ printf "%s:%v" (include "omni.componentName" $ctx) $.Values.ports.grpc | quote }}
{{ upper $name }}_HTTP_URL: {{ printf "http://%s:%v" (include "omni.componentName" $ctx) $.Values.ports.http | quote }}
{{- else if $svc.grpcAddr }}
{{ upper $name }}_GRPC_ADDR: {{ $svc.grpcAddr | quote }}
{{- end }}
{{- end }}
{{- range $key, $value := .Values.config.extraEnv }}
{{ $key }}: {{ $value | toString | quote }}
{{- end }}
{{- end }}

{{/* The secret-backed env entries of one service: secrets.common plus its own secretEnv. */}}
{{- define "omni.secretEnv" -}}
{{- $root := .root }}
{{- $names := concat $root.Values.secrets.common (.svc.secretEnv | default list) | uniq }}
{{- range $env := $names }}
{{- $ref := get $root.Values.secrets.keys $env }}
{{- if not $ref }}
{{- fail (printf "services.%s.secretEnv names %s, which is not in secrets.keys" $.name $env) }}
{{- end }}
- name: {{ $env }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secretName | default $root.Values.secrets.name }}
      key: {{ $ref.key }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end }}
