/* connection_states.c -- ConnectionStateChange events that FreeRDP 2.11 forgot to register (see
 * connection_states.h). */
#include "compat/connection_states.h"

int connection_states_subscribe(rdpContext *ctx, pConnectionStateChangeEventHandler handler)
{
    if (!ctx || !ctx->pubSub)
        return -1;
    if (!PubSub_FindEventType(ctx->pubSub, "ConnectionStateChange")) {
        wEventType type[] = { DEFINE_EVENT_ENTRY(ConnectionStateChange) };
        PubSub_AddEventTypes(ctx->pubSub, type, 1);
    }
    return PubSub_SubscribeConnectionStateChange(ctx->pubSub, handler) < 0 ? -1 : 0;
}
