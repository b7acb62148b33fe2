import Foundation
import RewindLog
import RewindTestSupport
import Testing

@testable import RewindShip

/// A three-node JetStream cluster on loopback with an R3 stream: the stream leader is killed with kill -9
/// while events are shipped, then (with it back) a follower. Shipping resumes by itself; the time from
/// each kill to the next acknowledgement is printed; and a real server's lame-duck mode. Slow by nature (an
/// election takes 4–9 s).
@Suite struct ClusterTests {
  /// The stream's leader and its replicas' state, asked of any live server.
  static func placement(_ cluster: NATSCluster, _ stream: String) -> JetStreamStreamInfo.Cluster? {
    for server in cluster.servers where server.pid != nil {
      guard let connection = try? NATSTestClient.connect(server.address) else { continue }
      defer { connection.close() }
      if let info = try? JetStream(connection: connection, timeout: .seconds(2)).streamInfo(stream),
        let placement = info.cluster, placement.leader != nil
      {
        return placement
      }
    }
    return nil
  }

  /// Waits (up to 60 s) until the stream's leader sees both other servers' copies up to date.
  static func waitUntilReplicasAreCurrent(_ cluster: NATSCluster, _ stream: String) {
    let deadline = ContinuousClock().now + .seconds(60)
    while ContinuousClock().now < deadline {
      if let placement = placement(cluster, stream), placement.replicas?.count == 2,
        placement.replicas?.allSatisfy(\.current) == true
      {
        return
      }
      Thread.sleep(forTimeInterval: 0.05)  // waits for the replicas to catch up
    }
  }

  /// Kills `server` and waits until the stream acknowledges an event that was not yet published when it
  /// died (one after everything then in flight); returns that event and how long it took.
  static func killAndTime(_ server: NATSServerProcess, _ shipper: Shipper) -> (UInt64, Duration)? {
    server.kill()
    let start = ContinuousClock().now
    let progress = shipper.progress
    let published = progress.shippedThrough + UInt64(progress.inFlight)
    guard shipper.waitUntilShipped(through: published + 1, timeout: .seconds(60)) else { return nil }
    return (published, ContinuousClock().now - start)
  }

  /// Starts `cluster`, a log of 20 events that an appender keeps growing, and a shipper of it to a new R3
  /// stream; returns once the first 200 events are shipped. The log directory lives as long as the caller
  /// keeps it.
  static func startShipping(to cluster: NATSCluster, seed: UInt64, label: String = #function) throws -> (
    log: TemporaryDirectory, appender: Appender, stream: String, shipper: Shipper
  ) {
    try cluster.start()
    let log = TemporaryDirectory()
    try appendEvents(log.path, 1...20)
    let appender = Appender(directory: log.path, pause: 0.002, seed: seed)
    let stream = streamName(label)
    var configuration = testConfiguration(cluster.addresses, stream: stream, window: 64, replicas: 3)
    configuration.backoff = NATSBackoff(initial: .milliseconds(50), maximum: .milliseconds(500))
    let shipper = try Shipper(directory: log.path, configuration: configuration)
    shipper.start()
    // The cluster elects its JetStream leader first; the shipper retries until the stream exists.
    guard shipper.waitUntilShipped(through: 200, timeout: .seconds(60)) else {
      shipper.stop()
      throw ServerProblem("the first 200 events were not shipped within 60 s: \(shipper.progress)")
    }
    return (log, appender, stream, shipper)
  }

  @Test func killingTheLeaderThenAFollowerLosesNothing() throws {
    guard NATSServerProcess.available() else { return }
    let cluster = try NATSCluster()
    let (log, appender, stream, shipper) = try Self.startShipping(to: cluster, seed: 0xC1_0031)
    defer {
      shipper.stop()
      withExtendedLifetime(log) {}
    }

    let leaderName = try #require(Self.placement(cluster, stream)?.leader)
    let leader = try #require(cluster.server(named: leaderName))
    let (beforeLeader, leaderTime) = try #require(
      Self.killAndTime(leader, shipper), "no acknowledgement after killing the leader")

    // The old leader comes back as a follower and catches up; then a follower is killed.
    try leader.start()
    Self.waitUntilReplicasAreCurrent(cluster, stream)
    let placement = try #require(Self.placement(cluster, stream))
    let followerName = try #require(placement.replicas?.first?.name)
    let follower = try #require(cluster.server(named: followerName))
    let (beforeFollower, followerTime) = try #require(
      Self.killAndTime(follower, shipper), "no acknowledgement after killing a follower")

    let last = try appender.stop()
    #expect(shipper.waitUntilShipped(through: last, timeout: .seconds(60)), "\(shipper.progress)")
    #expect(shipper.progress.lastError?.isFatal != true)
    print(
      "cluster: leader \(leaderName) killed at event \(beforeLeader), next acknowledgement after \(leaderTime); "
        + "follower \(followerName) killed at event \(beforeFollower), next acknowledgement after \(followerTime); "
        + "\(last) events")
    // The verifier's consumer is replicated too: it is created once the cluster is whole again.
    try follower.start()
    Self.waitUntilReplicasAreCurrent(cluster, stream)
    let live = try #require(cluster.servers.first { $0.pid != nil })
    let report = try RemoteVerifier(
      configuration: RemoteVerifyConfiguration(
        servers: [live.address], stream: stream, requestTimeout: .seconds(30))
    ).run()
    #expect(report.isIntact && report.verifiedEvent == last && report.streamLastSequence == last, "\(report)")
  }

  /// The server the shipper is connected to (the first configured: a round starts there) is put in
  /// lame-duck mode by `SIGUSR2`, as an operator's `nats-server --signal ldm` does, while events are
  /// appended and shipped: it announces it (`INFO` with `ldm`), closes its clients after a grace period of
  /// a second and exits. Shipping goes on through the other servers and the stream holds every event
  /// once, in order, its chain intact.
  @Test func aServerInLameDuckModeLosesNothing() throws {
    guard NATSServerProcess.available() else { return }
    // 30 s is the least duration 2.9 accepts; with one client the server closes it after the grace period.
    let cluster = try NATSCluster(extra: "lame_duck_duration: \"30s\"\nlame_duck_grace_period: \"1s\"")
    let (log, appender, stream, shipper) = try Self.startShipping(to: cluster, seed: 0x1D_0031)
    defer {
      shipper.stop()
      withExtendedLifetime(log) {}
    }

    let duck = cluster.servers[0]
    duck.kill(SIGUSR2)
    let exited = ContinuousClock().now + .seconds(40)
    while duck.pid != nil, ContinuousClock().now < exited {
      Thread.sleep(forTimeInterval: 0.05)  // waits for the lame duck to close its clients and exit
    }
    try #require(duck.pid == nil, "the server did not leave lame-duck mode: \(duck.logTail)")
    #expect(duck.logTail.contains("Entering lame duck mode"), "\(duck.logTail)")
    let progress = shipper.progress
    let published = progress.shippedThrough + UInt64(progress.inFlight)
    #expect(
      shipper.waitUntilShipped(through: published + 1, timeout: .seconds(60)),
      "no acknowledgement after the lame duck left: \(shipper.progress)")

    let last = try appender.stop()
    #expect(shipper.waitUntilShipped(through: last, timeout: .seconds(60)), "\(shipper.progress)")
    #expect(shipper.progress.lastError?.isFatal != true)
    try duck.start()
    Self.waitUntilReplicasAreCurrent(cluster, stream)
    let report = try RemoteVerifier(
      configuration: RemoteVerifyConfiguration(
        servers: [duck.address], stream: stream, requestTimeout: .seconds(30))
    ).run()
    #expect(report.isIntact && report.verifiedEvent == last && report.streamLastSequence == last, "\(report)")
  }
}
