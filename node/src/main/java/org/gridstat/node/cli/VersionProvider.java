package org.gridstat.node.cli;

import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() throws Exception {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/gridstat-node.properties")) {
            p.load(in);
        }
        return new String[] {"gridstat " + p.getProperty("version"), "Java " + System.getProperty("java.version")};
    }
}
