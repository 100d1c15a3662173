package dev.synccontext.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.0 request on a socket of its own, read to the connection's end: for tests that make many small
 * requests with cookies they set themselves (hundreds of sessions), where an {@code HttpClient} per session
 * would cost a selector thread each. nginx answers an HTTP/1.0 request without chunking and closes the
 * connection after it.
 */
final class PlainHttp {

    /** A response: status, the {@code X-Node} header, the cookies set, the body. */
    record Reply(int status, String node, List<String> setCookies, String body) {

        /** The value of cookie {@code name} this response set. */
        String cookie(String name) {
            for (String header : setCookies) {
                if (header.startsWith(name + "=")) {
                    int end = header.indexOf(';');
                    return header.substring(name.length() + 1, end < 0 ? header.length() : end);
                }
            }
            throw new IllegalStateException("no " + name + " cookie set: " + setCookies);
        }
    }

    private PlainHttp() {
    }

    static Reply post(int port, String path, String cookies) {
        String request = "POST " + path + " HTTP/1.0\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: 0\r\n"
                + (cookies.isEmpty() ? "" : "Cookie: " + cookies + "\r\n") + "\r\n";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + path + " on port " + port, e);
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toString(StandardCharsets.UTF_8);
    }

    private static Reply parse(String response) {
        int end = response.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalStateException("not an HTTP response: " + response);
        }
        String[] lines = response.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        String node = "";
        List<String> cookies = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).trim();
            String value = lines[i].substring(colon + 1).trim();
            if (name.equalsIgnoreCase("X-Node")) {
                node = value;
            } else if (name.equalsIgnoreCase("Set-Cookie")) {
                cookies.add(value);
            }
        }
        return new Reply(status, node, cookies, response.substring(end + 4));
    }
}
