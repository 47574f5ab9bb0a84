{{/* Name prefix of every object: fullnameOverride, else "<release>-controller". */}}
{{- define "headroom.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-controller" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "headroom.labels" -}}
app.kubernetes.io/name: headroom
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Selector of the controller pods. */}}
{{- define "headroom.selectorLabels" -}}
app.kubernetes.io/name: headroom
app.kubernetes.io/component: buffer-controller
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "headroom.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
