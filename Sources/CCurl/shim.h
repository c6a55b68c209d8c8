// Typed shims over libcurl: Swift cannot call the variadic curl_easy_setopt and curl_easy_getinfo.
#ifndef TESSERA_CCURL_SHIM_H
#define TESSERA_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*tessera_curl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*tessera_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                              curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode tessera_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode tessera_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode tessera_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode tessera_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode tessera_curl_set_body(CURL *handle, const void *body, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_POSTFIELDS, body);
}

static inline CURLcode tessera_curl_set_write_callback(CURL *handle, tessera_curl_write_callback callback,
                                                       void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

static inline CURLcode tessera_curl_set_header_callback(CURL *handle, tessera_curl_write_callback callback,
                                                        void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

static inline CURLcode tessera_curl_set_progress_callback(CURL *handle, tessera_curl_progress_callback callback,
                                                          void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

static inline CURLcode tessera_curl_response_code(CURL *handle, long *code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

#endif
