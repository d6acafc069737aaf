/* store.c -- placeholder until the results store lands. */
typedef int store_placeholder;
