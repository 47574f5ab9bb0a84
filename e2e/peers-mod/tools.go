//go:build tools

// Package tools pins the peers the end-to-end tier builds (e2e/cluster build): Karpenter's KWOK controller.
package tools

import (
	_ "sigs.k8s.io/karpenter/kwok"
)
