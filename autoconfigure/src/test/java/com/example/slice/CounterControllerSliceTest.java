package com.example.slice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

// The slice imports the starter's MVC parts (registry, scope, session, @OnContext), as the application has them.
// strict: Counter resolves only inside a callback, so a body that ran on the request thread would fail here.
@WebMvcTest(controllers = CounterController.class, properties = "synccontext.context-scope.strict=true")
@Import(Counter.class) // a slice scans controllers only: import the @ContextScoped beans they use
class CounterControllerSliceTest {

    @Autowired
    MockMvcTester mvc;

    @Test
    void eachSessionCountsOnItsOwnContext() {
        MockHttpSession alice = new MockHttpSession();
        MockHttpSession bob = new MockHttpSession();

        // exchange() (also what assertThat(mvc.post()...) uses) waits for an answer queued behind the
        // session's other work and dispatches it, so inline and queued bodies read alike.
        assertThat(mvc.post().uri("/counter/increment").session(alice).exchange()).hasStatusOk().hasBodyTextEqualTo("1");
        assertThat(mvc.post().uri("/counter/increment").session(alice).exchange()).hasStatusOk().hasBodyTextEqualTo("2");
        assertThat(mvc.post().uri("/counter/increment").session(bob).exchange()).hasStatusOk().hasBodyTextEqualTo("1");
    }
}
