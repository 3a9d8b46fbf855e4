{{/*
The template set of one Omni service. Every template takes (dict "root" $ "name" "cms" "svc" <effective
values from omni.serviceValues>) and is rendered by components.yaml for each service whose create is true.
*/}}

{{- define "omni.component.deployment" -}}
{{- $root := .root }}
{{- $svc := .svc }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
spec:
  {{- if not $svc.autoscaling.enabled }}
  replicas: {{ $svc.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "omni.componentSelectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    # Never go below the current capacity while rolling: new pods must be ready before old ones leave.
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  template:
    metadata:
      labels:
        {{- include "omni.componentLabels" . | nindent 8 }}
        {{- with $svc.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        # Roll the pods when the shared configuration changes.
        checksum/config: {{ include "omni.configData" $root | sha256sum }}
        {{- if $root.Values.metrics.podAnnotations }}
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ $root.Values.ports.http | quote }}
        prometheus.io/path: /metrics
        {{- end }}
        {{- with $svc.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "omni.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $root.Values.serviceAccount.automount }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml $root.Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ $svc.terminationGracePeriodSeconds }}
      {{- if $svc.topologySpread }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "omni.componentSelectorLabels" . | nindent 14 }}
      {{- end }}
      {{- with $svc.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $svc.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $svc.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .name }}
          image: {{ include "omni.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          # The one entry (as the image's CMD and `npm start`); a service's extra args follow it.
          args:
            - node
            - dist/omni/main.cjs
          {{- with $svc.args }}
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            - name: http
              containerPort: {{ $root.Values.ports.http }}
              protocol: TCP
            - name: grpc
              containerPort: {{ $root.Values.ports.grpc }}
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ include "omni.fullname" $root }}-config
          env:
            - name: OMNI_SERVICES
              value: {{ .name | quote }}
            - name: OTEL_SERVICE_NAME
              value: {{ printf "omni-%s" .name | quote }}
            - name: POD_NAME
              valueFrom:
                fieldRef: { fieldPath: metadata.name }
            - name: POD_NAMESPACE
              valueFrom:
                fieldRef: { fieldPath: metadata.namespace }
            - name: OTEL_RESOURCE_ATTRIBUTES
              value: "service.namespace=omni,service.instance.id=$(POD_NAME),k8s.pod.name=$(POD_NAME),k8s.namespace.name=$(POD_NAMESPACE)"
            {{- range $key, $value := $svc.env }}
            - name: {{ $key }}
              value: {{ $value | toString | quote }}
            {{- end }}
            {{- include "omni.secretEnv" . | trim | nindent 12 }}
          {{- with $svc.probes }}
          startupProbe:
            httpGet: { path: {{ .startup.path }}, port: http }
            periodSeconds: {{ .startup.periodSeconds }}
            failureThreshold: {{ .startup.failureThreshold }}
            timeoutSeconds: {{ .startup.timeoutSeconds }}
          livenessProbe:
            httpGet: { path: {{ .liveness.path }}, port: http }
            periodSeconds: {{ .liveness.periodSeconds }}
            failureThreshold: {{ .liveness.failureThreshold }}
            timeoutSeconds: {{ .liveness.timeoutSeconds }}
          readinessProbe:
            httpGet: { path: {{ .readiness.path }}, port: http }
            periodSeconds: {{ .readiness.periodSeconds }}
            failureThreshold: {{ .readiness.failureThreshold }}
            timeoutSeconds: {{ .readiness.timeoutSeconds }}
          {{- end }}
          {{- if gt (int $svc.preStopSleepSeconds) 0 }}
          lifecycle:
            # Keep serving while the endpoint removal propagates to kube-proxy and the ingress controller;
            # SIGTERM (and the service's own drain) follows when this returns.
            preStop:
              exec:
                command: ["sleep", {{ $svc.preStopSleepSeconds | quote }}]
          {{- end }}
          resources:
            {{- toYaml $svc.resources | nindent 12 }}
          securityContext:
            {{- toYaml $root.Values.securityContext | nindent 12 }}
          volumeMounts:
            # The root filesystem is read-only: tsx keeps its compile cache under /tmp.
            - name: tmp
              mountPath: /tmp
            - name: data
              mountPath: /app/data
            {{- if $svc.mountStores }}
            - name: stores
              mountPath: /etc/omni/stores
              readOnly: true
            - name: store-keys
              mountPath: /etc/omni/store-keys
              readOnly: true
            {{- end }}
      volumes:
        - name: tmp
          emptyDir: { sizeLimit: 256Mi }
        - name: data
          emptyDir: { sizeLimit: {{ $svc.dataSize | default "1Gi" }} }
        {{- if $svc.mountStores }}
        - name: stores
          configMap:
            name: {{ $root.Values.config.stores.registryConfigMap }}
        - name: store-keys
          secret:
            secretName: {{ $root.Values.config.stores.credentialsSecret }}
            # Private keys: readable by the service's user only (ssh refuses group-readable keys too). 256 is
            # octal 0400, written in decimal since YAML 1.1 and 1.2 read a leading zero differently.
            defaultMode: 256
        {{- end }}
{{- end }}

{{- define "omni.component.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "omni.componentSelectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ .root.Values.ports.http }}
      targetPort: http
      protocol: TCP
      appProtocol: http
    - name: grpc
      port: {{ .root.Values.ports.grpc }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
{{- end }}

{{- define "omni.component.hpa" -}}
{{- $as := .svc.autoscaling }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "omni.componentName" . }}
  minReplicas: {{ $as.minReplicas }}
  maxReplicas: {{ $as.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $as.targetCPUUtilizationPercentage }}
  behavior:
    # Scale down slowly: a burst of uploads or page views often comes back.
    scaleDown:
      stabilizationWindowSeconds: 300
{{- end }}

{{- define "omni.component.pdb" -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
spec:
  maxUnavailable: {{ .svc.podDisruptionBudget.maxUnavailable }}
  selector:
    matchLabels:
      {{- include "omni.componentSelectorLabels" . | nindent 6 }}
{{- end }}

{{- define "omni.component.networkPolicy" -}}
{{- $root := .root }}
{{- $np := $root.Values.networkPolicy }}
{{- /* Who may call this service: generated from the services' declarations (npm run graph:gen). */}}
{{- $graph := $root.Files.Get "files/service-graph.yaml" | fromYaml }}
{{- $node := required (printf "files/service-graph.yaml has no entry for %s" .name) (get $graph .name) }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "omni.componentSelectorLabels" . | nindent 6 }}
  policyTypes: [Ingress]
  ingress:
    {{- with $node.callers }}
    # gRPC and HTTP from exactly the services that declare they call this one.
    - from:
        {{- range . }}
        - podSelector:
            matchLabels:
              {{- include "omni.selectorLabels" $root | nindent 14 }}
              app.kubernetes.io/component: {{ . }}
        {{- end }}
      ports:
        - port: grpc
        - port: http
    {{- end }}
    {{- if $node.public }}
    # The public entry: the ingress controller.
    - from:
        {{- toYaml $np.ingressFrom | nindent 8 }}
      ports:
        - port: http
    {{- end }}
    {{- with $np.metricsFrom }}
    # Scraping /metrics.
    - from:
        {{- toYaml . | nindent 8 }}
      ports:
        - port: http
    {{- end }}
    {{- with .svc.extraIngressRules }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}

{{- define "omni.component.serviceMonitor" -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "omni.componentName" . }}
  namespace: {{ .root.Release.Namespace }}
  labels:
    {{- include "omni.componentLabels" . | nindent 4 }}
    {{- with .root.Values.metrics.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "omni.componentSelectorLabels" . | nindent 6 }}
  endpoints:
    - port: http
      path: /metrics
      interval: {{ .root.Values.metrics.serviceMonitor.interval }}
{{- end }}
