//===- skmd-server.cpp - A node's devices for other SKMD processes --------===//
//
//   SKMD_SERVER_SECRET=... skmd-server --listen=mpi:node7 --devices=cuda
//
// Serves the devices it opens to SKMD clients that hold the same secret
// (SKMD_DEVICES=cpu,remote:mpi:node7 on the client's side) until SIGINT or
// SIGTERM, then closes every client's connection and frees what they held.
// Started in an application's mpirun (--listen=mpi:world), it ends when
// its clients have left, with the job.
//
//===----------------------------------------------------------------------===//
#include "Server.h"
#include "devices/remote/Secret.h"
#include "session/Devices.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <pthread.h>
#include <unistd.h>

using namespace skmd;

namespace {

const char *Usage = R"(usage: skmd-server [options]

Serves this node's devices to SKMD processes elsewhere (remote devices) or
on this node: a client with SKMD_DEVICES=cpu,remote:<address> runs its
launches' pieces here too. Runs until SIGINT or SIGTERM (or, with --once
or --listen=mpi:world, until every client that came has left).

options:
  --listen=ADDRESS   where clients connect (default unix:$XDG_RUNTIME_DIR/
                     skmd-server.sock, or /tmp/skmd-server-<uid>.sock):
                       unix:PATH  a Unix socket, this node only (mode 0600)
                       mpi:NAME   an Open MPI port published as NAME through
                                  ompi-server (set OMPI_MCA_pmix_server_uri
                                  here and in every client)
                       mpi:world  started in the application's own mpirun
                                  (MPMD); clients name mpi:rank:<this rank>
  --once             stop once every client that came has left (implied by
                     --listen=mpi:world: the job ends with its ranks)
  --devices=LIST     the devices to serve, as SKMD_DEVICES takes them
                     (default: SKMD_DEVICES, else every device found); the
                     CPU is served only where the list names it or is empty
  --name=NAME        how clients name this server: its devices are
                     NAME.gpu0, ... (default: the host's name)
  --gather=MODE      gather clients' steps on each device into batches
                     and issue each batch in one order (docs/shared.md):
                       off          each client's work as it comes (default)
                       barrier[:US] once every client active on the device
                                    has sent its step, at most US
                                    microseconds (default 2000) after the
                                    batches before were issued; no client
                                    waits longer for another's stage
                       window:US    the steps that come within US
                                    microseconds
  --order=ORDER      a batch's order: auto (default: each order once per
                     shape of batch, then the one predicted faster: the
                     turnaround model times what such batches measured),
                     ps1 (every client's copies in, then the kernels, then
                     the copies out) or ps2 (each client's copies in,
                     kernel and copies out in turn)
  --explain          a line per batch once it ran: its steps, class, order,
                     and the turnaround predicted against the one measured
  --quiet            no line per client
  --help             this text

environment:
  SKMD_SERVER_SECRET, SKMD_SERVER_SECRET_FILE
                     the shared secret clients must prove (required; at least
                     16 bytes; the file must not be readable by others)
  SKMD_REMOTE_HEARTBEAT_MS, SKMD_REMOTE_TIMEOUT_MS
                     heartbeat period (500) and the silence after which a
                     client is dropped and its memory freed (10000)
)";

[[noreturn]] void die(const std::string &Message) {
  std::cerr << "skmd-server: " << Message << "\n";
  std::exit(1);
}

const char *value(const std::string &Arg, const char *Name) {
  size_t N = std::strlen(Name);
  if (Arg.compare(0, N, Name) == 0 && Arg.size() > N && Arg[N] == '=')
    return Arg.c_str() + N + 1;
  return nullptr;
}

/// Whether the device list \p Spec has an item of kind \p Kind ("cpu",
/// "remote:unix:/x" of "remote").
bool namesKind(const std::string &Spec, const std::string &Kind) {
  for (const std::string &Item : deviceListItems(Spec))
    if (Item.substr(0, Item.find(':')) == Kind)
      return true;
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Listen = localServerAddress(), Name, Spec;
  bool SpecGiven = false, Quiet = false, Once = false, Explain = false;
  GatherOptions Gather;
  std::string OrderGiven;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--help" || A == "-h") {
      std::cout << Usage;
      return 0;
    }
    if (const char *V = value(A, "--listen"))
      Listen = V;
    else if (const char *V = value(A, "--devices")) {
      Spec = V;
      SpecGiven = true;
    } else if (const char *V = value(A, "--name"))
      Name = V;
    else if (const char *V = value(A, "--gather")) {
      if (auto Bad = parseGather(V, Gather))
        die(*Bad);
    } else if (const char *V = value(A, "--order")) {
      OrderGiven = V;
      if (OrderGiven == "ps1")
        Gather.Order = SharingOrder::PS1;
      else if (OrderGiven == "ps2")
        Gather.Order = SharingOrder::PS2;
      else if (OrderGiven != "auto")
        die("--order is auto, ps1 or ps2, not '" + OrderGiven + "'");
    } else if (A == "--explain")
      Explain = true;
    else if (A == "--quiet")
      Quiet = true;
    else if (A == "--once")
      Once = true;
    else
      die("unknown argument '" + A + "' (see --help)");
  }
  if (Gather.Gather == GatherOptions::Off && (!OrderGiven.empty() || Explain))
    die(std::string(OrderGiven.empty() ? "--explain" : "--order") +
        " orders or explains batches: give --gather=barrier or --gather=window:<us> too");
  if (!SpecGiven)
    if (const char *Env = std::getenv("SKMD_DEVICES"))
      Spec = Env;
  if (Name.empty()) {
    char Host[256] = "server";
    gethostname(Host, sizeof(Host) - 1);
    Name = Host;
  }
  if (Name.find_first_of(",=@: ") != std::string::npos)
    die("--name=" + Name + ": a name may not hold , = @ : or spaces (plans name its devices)");
  auto Address = parseServerAddress(Listen);
  if (!Address)
    die(Address.error().message());
  auto Secret = secretFromEnvironment();
  if (!Secret)
    die(Secret.error().message());
  // Never serve our own devices to ourselves.
  if (namesKind(Spec, "remote"))
    die("--devices=" + Spec + ": a server serves its own devices, not remote ones");

  // A client that dies mid-write must cost that client only: Open MPI's
  // TCP transport writes to its closed socket without MSG_NOSIGNAL, and the
  // default SIGPIPE ended the whole server (exit 141).
  std::signal(SIGPIPE, SIG_IGN);

  // SIGINT and SIGTERM go to one thread that stops the server.
  sigset_t Signals;
  sigemptyset(&Signals);
  sigaddset(&Signals, SIGINT);
  sigaddset(&Signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &Signals, nullptr);

  auto Opened = openDevices(Spec);
  if (!Opened)
    die(Opened.error().message());
  std::vector<std::unique_ptr<Device>> Devices;
  bool Cpu = Spec.empty() || Spec == "all" || namesKind(Spec, "cpu");
  for (auto &D : Opened->Devices)
    if (Cpu || D.get() != Opened->Cpu)
      Devices.push_back(std::move(D));
  if (Devices.empty())
    die("no devices to serve (--devices=" + Spec + ")");

  ServerOptions O;
  O.Name = Name;
  O.Secret = *Secret;
  O.Times = LinkTimes::fromEnvironment();
  bool World = Address->Kind == ServerAddress::Mpi && Address->Where == "world";
  O.StopWhenIdle = Once || World;
  if (!Quiet)
    O.Log = [](const std::string &Line) { std::cerr << "skmd-server: " << Line << "\n"; };
  O.Gather = Gather;
  if (Explain)
    O.Explain = [](const std::string &Line) { std::cerr << "skmd-server: " << Line << "\n"; };
  std::string Listing;
  for (auto &D : Devices)
    Listing += (Listing.empty() ? "" : ", ") + Name + "." + D->info().Name;
  Server S(std::move(Devices), O);

  auto L = listenAt(*Address);
  if (!L)
    die(L.error().message());
  std::cerr << "skmd-server: serving " << Listing << " at " << (*L)->address() << "\n";

  std::thread Waiter([&] {
    int Signal = 0;
    sigwait(&Signals, &Signal);
    std::cerr << "skmd-server: " << strsignal(Signal) << ": stopping\n";
    S.stop();
  });
  Waiter.detach();
  if (Status St = S.listen(**L); !St)
    die(St.error().message());
  // Every client's connection is closed and what it held freed (listen
  // waited for them); the devices close with the process.
  L->reset();
  std::cerr << "skmd-server: stopped\n";
  std::fflush(nullptr);
  // In an mpirun every rank must finalize MPI (the plugin does at exit);
  // nothing waits in MPI_Comm_accept there. A published port's accept
  // cannot be interrupted: end without static destructors, or
  // MPI_Finalize would wait for it.
  if (World)
    std::exit(0);
  std::_Exit(0);
}
