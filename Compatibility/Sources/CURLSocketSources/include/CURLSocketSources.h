// Nothing to call: the library's one export is `curl_multi_setopt`, which the extension's process resolves here
// before libcurl (see curl_socket_sources.c).
