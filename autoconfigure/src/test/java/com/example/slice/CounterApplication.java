package com.example.slice;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the slice tests of this package find. */
@SpringBootApplication
public class CounterApplication {
}
