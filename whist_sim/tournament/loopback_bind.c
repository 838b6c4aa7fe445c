/* Bind "any address" sockets to one loopback address instead (LD_PRELOAD shim).
 *
 * Ray's core processes open their gRPC ports on every interface whatever node
 * address they advertise, and Ray has no setting to change that. Preloaded into
 * an embedded Ray (see loopback.py), this turns a bind to 0.0.0.0 or :: into a
 * bind to WHIST_SIM_BIND_HOST (e.g. 127.0.0.2; IPv6 sockets get the v4-mapped
 * address), so nothing off the machine can reach those ports. Any other bind is
 * passed through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <string.h>
#include <stdlib.h>

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
    static bind_fn real_bind = NULL;
    if (!real_bind) real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
    const char *host = getenv("WHIST_SIM_BIND_HOST");
    if (host && addr) {
        if (addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
            struct sockaddr_in a;
            memcpy(&a, addr, sizeof a);
            if (a.sin_addr.s_addr == htonl(INADDR_ANY) && inet_pton(AF_INET, host, &a.sin_addr) == 1)
                return real_bind(fd, (struct sockaddr *)&a, sizeof a);
        } else if (addr->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
            struct sockaddr_in6 a;
            memcpy(&a, addr, sizeof a);
            if (IN6_IS_ADDR_UNSPECIFIED(&a.sin6_addr)) {
                struct in_addr v4;
                if (inet_pton(AF_INET, host, &v4) == 1) {
                    int off = 0;
                    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
                    memset(&a.sin6_addr, 0, sizeof a.sin6_addr);
                    a.sin6_addr.s6_addr[10] = 0xff;
                    a.sin6_addr.s6_addr[11] = 0xff;
                    memcpy(&a.sin6_addr.s6_addr[12], &v4, 4);
                    return real_bind(fd, (struct sockaddr *)&a, sizeof a);
                }
            }
        }
    }
    return real_bind(fd, addr, len);
}
