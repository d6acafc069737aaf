/* connection_states.h -- FreeRDP 2.11 publishes a ConnectionStateChange event at every step of
 * the client's connection (rdp_client_transition_to_state) but never registers that event type
 * with the context's PubSub (FreeRDP_Events in libfreerdp/core/freerdp.c lacks it), so a
 * subscription to it fails and nothing is ever delivered. This registers it first. */
#ifndef SESSMAX_CONNECTION_STATES_H
#define SESSMAX_CONNECTION_STATES_H

#include <freerdp/event.h>
#include <freerdp/freerdp.h>

/* Subscribes handler to ctx's ConnectionStateChange events, registering the event type when the
 * library did not. It runs on the thread that drives the connection (freerdp_connect()'s, then
 * the loop's). 0, or -1 when PubSub refused it. */
int connection_states_subscribe(rdpContext *ctx, pConnectionStateChangeEventHandler handler);

#endif
