package dev.headroom.core.scheduling;

/**
 * A requested host port. {@code hostIP} is normalised to {@code 0.0.0.0} when empty, {@code protocol} to
 * {@code TCP}. Two ports conflict when protocol and port are equal and (the IPs are equal or either is the
 * wildcard {@code 0.0.0.0}).
 */
public record HostPort(String hostIP, String protocol, int port) {

  /** The wildcard address. */
  public static final String ANY_IP = "0.0.0.0";

  public HostPort {
    hostIP = hostIP == null || hostIP.isEmpty() ? ANY_IP : hostIP;
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
  }

  /** True when both cannot be bound on one node. */
  public boolean conflictsWith(HostPort other) {
    return port == other.port
        && protocol.equals(other.protocol)
        && (hostIP.equals(other.hostIP) || ANY_IP.equals(hostIP) || ANY_IP.equals(other.hostIP));
  }
}
