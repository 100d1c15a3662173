package com.example.live;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class LiveBoardApplication {

    public static void main(String[] args) {
        SpringApplication.run(LiveBoardApplication.class, args);
    }
}
