package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.scope.ContextScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The context-scoped bean definitions whose class carries {@link Durable}, by bean name; read, never created. */
final class DurableBeanDefinitions {

    private DurableBeanDefinitions() {
    }

    static Map<String, Class<?>> find(ConfigurableListableBeanFactory beanFactory) {
        Map<String, Class<?>> found = new LinkedHashMap<>();
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            if (!ContextScoped.SCOPE_NAME.equals(definition.getScope())) {
                continue;
            }
            Class<?> type = beanFactory.getType(name, false);
            if (type != null && type.isAnnotationPresent(Durable.class)) {
                found.put(name, type);
            }
        }
        return found;
    }

    /** Matches when the application declares at least one durable bean: none, and nothing of the layer exists. */
    static final class OnDurableBeans extends SpringBootCondition implements ConfigurationCondition {

        /** When bean definitions are registered: beans an application {@code @Import}s exist only then. */
        @Override
        public ConfigurationPhase getConfigurationPhase() {
            return ConfigurationPhase.REGISTER_BEAN;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
            if (beanFactory == null) {
                return ConditionOutcome.noMatch("no bean factory");
            }
            Map<String, Class<?>> durable = find(beanFactory);
            return durable.isEmpty() ? ConditionOutcome.noMatch("no @Durable @ContextScoped bean")
                    : ConditionOutcome.match("@Durable beans " + durable.keySet());
        }
    }
}
