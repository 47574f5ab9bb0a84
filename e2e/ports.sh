# Sourced by e2e/cluster and e2e/peers: `free_port NAME` sets the variable NAME to a TCP port for a server of the bed
# to listen on (a variable, not output: in a $(...) subshell the ports handed out would be forgotten).
#
# The port is drawn below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 by default), where
# the bed's own client connections take their local ports: a port drawn inside it could be free when checked and
# taken by an outgoing connection before the server binds it ("bind: address already in use"; it happened to the
# Cluster Autoscaler's --address in CI). A port is taken when any socket, listening or connected, on any interface
# uses it (Karpenter binds ":PORT", every interface), or when this run handed it out already.
declare -A TAKEN=()
free_port() {
  local -n out=$1
  local p low=32768 lo=20000 range
  if range=$(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null); then low=${range%%[[:space:]]*}; fi
  (( low - lo >= 1000 )) || lo=$(( low > 11024 ? low - 10000 : 1024 ))
  for _ in $(seq 200); do
    p=$(( lo + RANDOM % (low - lo) ))
    [[ -n "${TAKEN[$p]:-}" ]] && continue
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then continue; fi
    if command -v ss >/dev/null && ss -Hatn "( sport = :$p )" 2>/dev/null | grep -q .; then continue; fi
    TAKEN[$p]=1; out=$p; return
  done
  echo "no free port found below $low" >&2; exit 1
}
