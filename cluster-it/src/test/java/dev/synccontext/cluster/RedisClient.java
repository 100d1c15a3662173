package dev.synccontext.cluster;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal RESP2 client for what the tests inspect in Redis (HGETALL, KEYS, INFO, MONITOR). Bulk
 * strings come back as {@code byte[]}, so sizes are the bytes Redis stores. Not thread-safe.
 */
final class RedisClient implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RedisClient(int port) {
        try {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(30_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Object command(String... args) {
        send(args);
        return read();
    }

    void send(String... args) {
        try {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            buffer.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                buffer.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                buffer.write(bytes);
                buffer.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write(buffer.toByteArray());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One reply: String (simple), Long, byte[] (bulk), List (array), null; an error reply throws. */
    Object read() {
        try {
            int type = in.read();
            String line = line();
            return switch (type) {
                case '+' -> line;
                case '-' -> throw new IllegalStateException("Redis error: " + line);
                case ':' -> Long.parseLong(line);
                case '$' -> {
                    int length = Integer.parseInt(line);
                    if (length < 0) {
                        yield null;
                    }
                    byte[] bytes = in.readNBytes(length);
                    in.readNBytes(2);
                    yield bytes;
                }
                case '*' -> {
                    int count = Integer.parseInt(line);
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        items.add(read());
                    }
                    yield items;
                }
                default -> throw new IllegalStateException("Unexpected RESP type " + type + ": " + line);
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new IOException("Redis closed the connection");
            }
            line.write(b);
        }
        in.read(); // '\n'
        return line.toString(StandardCharsets.UTF_8);
    }

    /** HGETALL as field name → raw value bytes. */
    Map<String, byte[]> hash(String key) {
        List<?> flat = (List<?>) command("HGETALL", key);
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            fields.put(new String((byte[]) flat.get(i), StandardCharsets.UTF_8), (byte[]) flat.get(i + 1));
        }
        return fields;
    }

    List<String> keys(String pattern) {
        List<String> keys = new ArrayList<>();
        for (Object key : (List<?>) command("KEYS", pattern)) {
            keys.add(new String((byte[]) key, StandardCharsets.UTF_8));
        }
        return keys;
    }

    String text(String... args) {
        Object reply = command(args);
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a test connection
        }
    }
}
