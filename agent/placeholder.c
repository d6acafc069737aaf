/* placeholder */
typedef int agent_placeholder;
