/* placeholder */
typedef int simhost_placeholder;
