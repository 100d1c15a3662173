package com.example.secured;

import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The management endpoints behind HTTP basic: health for anyone (load balancers), {@code /actuator/synccontext}
 * and the rest for role ACTUATOR. With {@code synccontext.endpoint.roles=ACTUATOR} the endpoint's details
 * (stacks, call sites, who holds the most) go to that role only.
 */
@Configuration(proxyBeanMethods = false)
class ActuatorSecurity {

    @Bean
    SecurityFilterChain management(HttpSecurity http) throws Exception {
        http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to("health")).permitAll()
                        .requestMatchers(EndpointRequest.to(SyncContextEndpoint.class)).hasRole("ACTUATOR")
                        .anyRequest().hasRole("ACTUATOR"))
                .httpBasic(Customizer.withDefaults());
        return http.build();
    }
}
