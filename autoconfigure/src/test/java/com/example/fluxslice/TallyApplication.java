package com.example.fluxslice;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the WebFlux slice test of this package finds. */
@SpringBootApplication
public class TallyApplication {
}
