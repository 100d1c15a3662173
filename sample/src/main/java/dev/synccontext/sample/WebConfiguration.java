package dev.synccontext.sample;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts {@link SessionGuard} in front of the board API, except the calls that may start or end a session. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new SessionGuard())
                .addPathPatterns("/api/**")
                .excludePathPatterns("/api/board", "/api/session");
    }
}
