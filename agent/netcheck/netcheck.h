/* netcheck.h -- `sessmax-agent netcheck`: measures the link emulator against its profile on this
 * host. Echo sessions (one TCP connection each, a 64-byte ping every 100 ms) give the round-trip
 * time seen by an application; bulk connections give throughput and the sender's retransmission
 * rate (TCP_INFO). Both ends are local: the server in the host namespace on 127.0.0.1, the clients
 * in the emulator's namespace. Used by the accuracy test and by the bench. */
#ifndef SESSMAX_NETCHECK_H
#define SESSMAX_NETCHECK_H

int netcheck_main(int argc, char **argv);

#endif
