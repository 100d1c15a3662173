package com.example.slice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

@WebMvcTest(CounterController.class)
@Import(Counter.class)
class CounterMockMvcTesterTest {

    @Autowired
    MockMvcTester mvc;

    @Test
    void concurrentRequestsOfOneSessionAreCountedExactly() throws Exception {
        MockHttpSession session = new MockHttpSession();
        // the first request gives the session its context; the others race for it
        assertThat(mvc.post().uri("/counter/increment").session(session).exchange()).hasBodyTextEqualTo("1");

        List<Future<MvcTestResult>> answers = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 400; i++) {
                // some bodies run inline, some queue behind the others: exchange() reads both
                answers.add(clients.submit(() -> mvc.post().uri("/counter/increment").session(session).exchange()));
            }
            List<Integer> counts = new ArrayList<>();
            for (Future<MvcTestResult> answer : answers) {
                MvcTestResult result = answer.get();
                assertThat(result).hasStatusOk();
                counts.add(Integer.valueOf(result.getResponse().getContentAsString()));
            }
            assertThat(counts).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(2, 401).boxed().toList());
        } finally {
            clients.shutdownNow();
        }
    }
}
