/* codec_threads.c -- WinPR's registry as FreeRDP 2.11's rfx_context_new sees it: the RemoteFX key
 * answers UseThreads=0 (contract and why: codec_threads.h). */
#include "compat/codec_threads.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <strings.h>

#include <freerdp/build-config.h>
#include <winpr/registry.h>

/* rfx.c's RFX_KEY, from the same build configuration as the installed library */
#define CODEC_THREADS_KEY "Software\\" FREERDP_VENDOR_STRING "\\" FREERDP_PRODUCT_STRING "\\RemoteFX"

static atomic_int threads_off;
static char rfx_key_object;   /* its address is the handle of the answered key */
#define RFX_HKEY ((HKEY)&rfx_key_object)

typedef LONG (*open_fn)(HKEY, LPCSTR, DWORD, REGSAM, PHKEY);
typedef LONG (*query_fn)(HKEY, LPCSTR, LPDWORD, LPDWORD, LPBYTE, LPDWORD);
typedef LONG (*close_fn)(HKEY);
static open_fn real_open;
static query_fn real_query;
static close_fn real_close;
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

static void reg_resolve(void)
{
    real_open = (open_fn)dlsym(RTLD_NEXT, "RegOpenKeyExA");
    real_query = (query_fn)dlsym(RTLD_NEXT, "RegQueryValueExA");
    real_close = (close_fn)dlsym(RTLD_NEXT, "RegCloseKey");
}

void codec_threads_off(void)
{
    pthread_once(&reg_once, reg_resolve);
    atomic_store(&threads_off, 1);
}

LONG RegOpenKeyExA(HKEY hKey, LPCSTR lpSubKey, DWORD ulOptions, REGSAM samDesired, PHKEY phkResult)
{
    if (atomic_load(&threads_off) && hKey == HKEY_LOCAL_MACHINE && lpSubKey && phkResult &&
        strcasecmp(lpSubKey, CODEC_THREADS_KEY) == 0) {
        *phkResult = RFX_HKEY;
        return ERROR_SUCCESS;
    }
    pthread_once(&reg_once, reg_resolve);
    return real_open ? real_open(hKey, lpSubKey, ulOptions, samDesired, phkResult) : ERROR_FILE_NOT_FOUND;
}

/* UseThreads as a REG_DWORD 0, the way WinPR answers a DWORD value. */
static LONG answer_use_threads(LPDWORD lpType, LPBYTE lpData, LPDWORD lpcbData)
{
    if (lpType)
        *lpType = REG_DWORD;
    if (lpData) {
        if (!lpcbData || *lpcbData < sizeof(DWORD))
            return ERROR_MORE_DATA;
        memset(lpData, 0, sizeof(DWORD));
    }
    if (lpcbData)
        *lpcbData = sizeof(DWORD);
    return ERROR_SUCCESS;
}

LONG RegQueryValueExA(HKEY hKey, LPCSTR lpValueName, LPDWORD lpReserved, LPDWORD lpType, LPBYTE lpData,
                      LPDWORD lpcbData)
{
    if (hKey == RFX_HKEY)
        return lpValueName && strcasecmp(lpValueName, "UseThreads") == 0
                   ? answer_use_threads(lpType, lpData, lpcbData)
                   : ERROR_FILE_NOT_FOUND;
    pthread_once(&reg_once, reg_resolve);
    return real_query ? real_query(hKey, lpValueName, lpReserved, lpType, lpData, lpcbData)
                      : ERROR_FILE_NOT_FOUND;
}

LONG RegCloseKey(HKEY hKey)
{
    if (hKey == RFX_HKEY)
        return ERROR_SUCCESS;
    pthread_once(&reg_once, reg_resolve);
    return real_close ? real_close(hKey) : ERROR_INVALID_HANDLE;
}
